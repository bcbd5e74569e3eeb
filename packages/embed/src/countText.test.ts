import { countText } from './countText';

test('says "N comments" with the plural form the language chooses for N', () => {
  expect([0, 1, 2].map((n) => countText(n, 'en'))).toEqual([
    '0 comments',
    '1 comment',
    '2 comments',
  ]);
  // Polish: one, few (2–4), many (0, 5–21).
  expect([1, 3, 5, 22].map((n) => countText(n, 'pl'))).toEqual([
    '1 komentarz',
    '3 komentarze',
    '5 komentarzy',
    '22 komentarze',
  ]);
  // Arabic has six forms; its zero and one are words, without the number.
  expect(countText(0, 'ar')).toBe('لا توجد تعليقات');
  expect(countText(2, 'ar')).toBe('تعليقان');
  expect(countText(3, 'ar')).toBe('3 تعليقات');
  expect(countText(4, 'ja')).toBe('4 件のコメント');
});

test('formats the number for the language', () => {
  expect(countText(1234, 'en')).toBe('1,234 comments');
  expect(countText(1234, 'de')).toBe('1.234 Kommentare');
});

test('takes a tag by its language when there is no catalog for it exactly, English when none', () => {
  expect(countText(2, 'fr-CA')).toBe(countText(2, 'fr'));
  expect(countText(2, 'PT-pt')).toBe(countText(2, 'pt-BR'));
  expect(countText(2, 'zh-TW')).toBe(countText(2, 'zh-CN'));
  expect(countText(2, 'xx')).toBe('2 comments');
  expect(countText(2, '')).toBe('2 comments');
});
