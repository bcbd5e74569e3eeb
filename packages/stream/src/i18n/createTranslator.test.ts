import { createTranslator, extendCatalog } from './createTranslator';

const catalog = {
  hello: 'Hello, {name}',
  comments: { one: '{count} comment', other: '{count} comments' },
  missing: 'Hi {who}',
} as const;

test('substitutes variables and formats numbers for the locale', () => {
  expect(createTranslator('en', catalog)('hello', { name: 'Ada' })).toBe('Hello, Ada');
  expect(createTranslator('en', catalog)('comments', { count: 1200 })).toBe('1,200 comments');
  expect(createTranslator('es', catalog)('comments', { count: 12000 })).toBe('12.000 comments');
});

test('chooses the plural form by the locale rules', () => {
  const t = createTranslator('en', catalog);
  expect(t('comments', { count: 1 })).toBe('1 comment');
  expect(t('comments', { count: 0 })).toBe('0 comments');
  expect(t('comments', { count: 2 })).toBe('2 comments');
});

test('leaves a placeholder without a value visible', () => {
  expect(createTranslator('en', catalog)('missing')).toBe('Hi {who}');
});

test('a lazy key shows as itself until its chunk extends the catalog, then is translated', () => {
  const t = createTranslator<keyof typeof catalog, 'later'>('en', catalog);
  expect(t('later', { name: 'Ada' })).toBe('later');
  extendCatalog(t, { later: 'Later, {name}' });
  expect(t('later', { name: 'Ada' })).toBe('Later, Ada');
  expect(t('hello', { name: 'Ada' })).toBe('Hello, Ada');
});
