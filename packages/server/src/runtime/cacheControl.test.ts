import { ASSET_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL, cacheControlFor } from './serveStatic';

const JS = 'text/javascript; charset=utf-8';

test("a locale's catalog chunk is kept a year: its folder is named by the catalogs' hash", () => {
  expect(cacheControlFor('/embed/assets/catalogs-0a1b2c3d4e/pt-BR.js', JS)).toBe(
    IMMUTABLE_CACHE_CONTROL,
  );
  expect(cacheControlFor('/embed/assets/chunks/stream-Thread-Ab3_x9Zq.js', JS)).toBe(
    IMMUTABLE_CACHE_CONTROL,
  );
});

test('a name without a hash is revalidated after minutes', () => {
  expect(cacheControlFor('/embed/assets/catalogs/fr.js', JS)).toBe(ASSET_CACHE_CONTROL);
  expect(cacheControlFor('/embed/assets/catalogs-nothex1234/fr.js', JS)).toBe(ASSET_CACHE_CONTROL);
  expect(cacheControlFor('/embed.js', JS)).toBe(ASSET_CACHE_CONTROL);
});
