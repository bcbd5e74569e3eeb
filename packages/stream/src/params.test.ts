import {
  setDocumentLanguage as setLanguage,
  SUPPORTED_LOCALES,
  toLocale as toLocaleOf,
} from '@parley/contract';
import { pickLocale, readStreamParams } from './params';

const toLocale = (tag: string | null) => toLocaleOf(tag, SUPPORTED_LOCALES);

describe('toLocale', () => {
  it('takes a tag with a catalog as it is, whatever its case', () => {
    expect(toLocale('pt-BR')).toBe('pt-BR');
    expect(toLocale('zh-cn')).toBe('zh-CN');
    expect(toLocale('fr')).toBe('fr');
  });

  it('takes another tag by its language: the first catalog of that language', () => {
    expect(toLocale('fr-CA')).toBe('fr');
    expect(toLocale('pt')).toBe('pt-BR');
    expect(toLocale('pt_PT')).toBe('pt-BR');
    expect(toLocale('zh-Hant-TW')).toBe('zh-CN');
    expect(toLocale('es-419')).toBe('es');
  });

  it('has none for a language without a catalog, or no tag', () => {
    expect(toLocale('sv')).toBeUndefined();
    expect(toLocale('')).toBeUndefined();
    expect(toLocale(null)).toBeUndefined();
  });
});

describe("the frame's locale (pickLocale)", () => {
  it("is the loader's locale option first", () => {
    expect(pickLocale('?locale=de&lang=fr', 'it')).toBe('de');
  });

  it("else the site's setting", () => {
    expect(pickLocale('?lang=fr', 'it')).toBe('it');
  });

  it("else the host page's language, when the setting is empty (each page's own)", () => {
    expect(pickLocale('?lang=he', '')).toBe('he');
    expect(pickLocale('?lang=he')).toBe('he');
  });

  it('passes over a choice without a catalog to the next, and ends in English', () => {
    expect(pickLocale('?locale=sv&lang=ko', 'xx')).toBe('ko');
    expect(pickLocale('?lang=sv', '')).toBe('en');
    expect(pickLocale('')).toBe('en');
  });

  it('is what readStreamParams gives the frame', () => {
    expect(readStreamParams('?lang=ja&origin=https://host.example', '').locale).toBe('ja');
    expect(readStreamParams('?lang=ja', 'uk').locale).toBe('uk');
  });
});

test('setLanguage marks the document: lang, and dir right to left for Arabic and Hebrew only', () => {
  setLanguage(document, 'ar');
  expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar', 'rtl']);
  setLanguage(document, 'he');
  expect(document.documentElement.dir).toBe('rtl');
  setLanguage(document, 'ja');
  expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ja', 'ltr']);
});
