import { SUPPORTED_LOCALES } from '@parley/contract';
import { localeOptions } from './GeneralSettings';

test("offers each page's own language first, then every language of the widget named in itself", () => {
  const options = localeOptions('');
  expect(options[0]).toEqual({ value: '', label: "Each page's own language" });
  expect(options.slice(1).map((option) => option.value)).toEqual([...SUPPORTED_LOCALES]);
  expect(options).toContainEqual({ value: 'fr', label: 'français (fr)' });
  expect(options).toContainEqual({ value: 'ja', label: '日本語 (ja)' });
  expect(options).toContainEqual({ value: 'pt-BR', label: 'português (Brasil) (pt-BR)' });
});

test('keeps a tag saved before that is not one of them, so the form shows what is stored', () => {
  expect(localeOptions('fr-CA').at(-1)).toEqual({
    value: 'fr-CA',
    label: 'français canadien (fr-CA)',
  });
  expect(localeOptions('fr').filter((option) => option.value === 'fr')).toHaveLength(1);
});
