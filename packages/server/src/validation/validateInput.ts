/**
 * Field checks shared by the admin mutations and the install. Each returns the value to store or throws
 * `INVALID_INPUT` naming the field, so the console shows the message next to it.
 */
import { normalizeOrigin } from '../db/store/sites';
import { ParleyError } from '../ParleyError';

/** The trimmed text; empty is `INVALID_INPUT` on `field`. */
export function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === '')
    throw new ParleyError('INVALID_INPUT', 'This field is required.', {
      field,
      problem: 'REQUIRED',
    });
  return trimmed;
}

/** An absolute http(s) URL in its normalized form. */
export function httpUrl(value: string, field: string): string {
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through to the coded error
  }
  throw new ParleyError('INVALID_INPUT', 'Expected an http(s) URL.', {
    field,
    problem: 'URL_INVALID',
  });
}

/**
 * Permitted origins, normalized (`https://Example.com/` → `https://example.com`) and without
 * repeats; the site's own origin is always one of them, as at install. A bad entry is
 * `INVALID_INPUT` on `<field>.<index>`.
 */
export function allowedOrigins(
  values: readonly string[],
  siteUrl: string,
  field: string,
): string[] {
  const list = values.map((value, i) => {
    const trimmed = value.trim();
    // An origin is scheme://host[:port]; a path, query or credentials mean a typo to point at.
    let ok = false;
    try {
      const url = new URL(trimmed);
      ok =
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.pathname === '/' &&
        url.search === '' &&
        url.hash === '' &&
        url.username === '';
    } catch {
      ok = false;
    }
    if (!ok) {
      throw new ParleyError('INVALID_INPUT', `“${value}” is not an origin.`, {
        field: `${field}.${i}`,
        problem: 'ORIGIN_INVALID',
        value,
      });
    }
    return normalizeOrigin(trimmed);
  });
  return [...new Set([...list, normalizeOrigin(siteUrl)])];
}
