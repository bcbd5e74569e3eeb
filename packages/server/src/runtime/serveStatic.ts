import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DocumentSecurity } from './documentSecurity';

/**
 * Content types by extension. A short list on purpose: only what the built bundles and the example
 * pages contain; anything else is served as bytes, which with `nosniff` a browser will not run.
 */
export const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
});

/** Type of a file whose extension is not in {@link CONTENT_TYPES}. */
export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/**
 * HTML must revalidate on every load: it names the other files, and a stale page after a deploy
 * would load code that no longer matches the API.
 */
export const HTML_CACHE_CONTROL = 'no-cache';

/**
 * Other files: short enough that a deploy reaches readers of `/embed.js` (whose name is fixed,
 * since host pages hard-code it) within minutes; the ETag makes revalidation cheap.
 */
export const ASSET_CACHE_CONTROL = 'public, max-age=300';

/**
 * Files whose name carries a hash of their content (rollup's chunks, `name-1a2B3c4D.js`): a new
 * content is a new name, so a browser or a CDN may keep one for a year without asking again.
 */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * A name that never holds other bytes: a chunk with rollup's content hash (8 characters of
 * base64url before the extension), an avatar rendering (uploads/storeAvatar.ts: a fresh random
 * name per upload, `-256.webp` or `-64.webp`) or a comment image (uploads/commentImages.ts:
 * `<16 hex>-<width>x<height>.webp`).
 */
const HASHED_NAME =
  /(?:-[\w-]{8}\.(?:js|css)|\/catalogs-[0-9a-f]{10}\/[\w-]+\.js|[0-9a-f]{16}-\d+(?:x\d+)?\.webp)$/;

/** The Cache-Control of a static file by its path and type. */
export function cacheControlFor(path: string, type: string): string {
  if (type.startsWith('text/html')) return HTML_CACHE_CONTROL;
  return HASHED_NAME.test(path) ? IMMUTABLE_CACHE_CONTROL : ASSET_CACHE_CONTROL;
}

/**
 * Encodings the build writes beside each text file (`file.js.br`, `file.js.gz`), best first: the
 * server picks one by `Accept-Encoding` and never compresses per request.
 */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** Whether `accept` (an `Accept-Encoding` header) takes `encoding`, with a q-value above 0. */
export function acceptsEncoding(accept: string | undefined, encoding: string): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((part) => {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    return (token === encoding || token === '*') && quality > 0;
  });
}

/** File served for a request that names a directory (the console's and the stream's entry). */
export const INDEX_FILE = 'index.html';

/**
 * A route with options: a single-page app (unknown paths get its HTML page, which routes
 * itself), or a file or folder that may not be framed.
 */
export interface AppRoute {
  /** Directory of the built app, or the one file served. */
  root: string;
  /** The page (inside `root`) served for any path under the prefix that names no file. */
  fallback?: string;
  /** True: the page may not be framed at all (`frame-ancestors 'none'`). */
  noFraming?: boolean;
  /** True: the page is alone in its browsing context group (COOP `same-origin`; the console). */
  isolated?: boolean;
}

/** Options of {@link createStaticHandler}. */
export interface StaticHandlerOptions {
  /** URL prefix (`/admin`) → file, directory or single-page app. The longest matching prefix wins. */
  routes: Record<string, string | AppRoute>;
  /** The CSP and other headers of HTML documents (documentSecurity.ts). */
  documents: DocumentSecurity;
}

/**
 * Serves files; resolves true when the URL was under one of the prefixes (even if the answer was
 * 404), false when the caller should keep routing.
 */
export type StaticHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * Creates the static file handler. Paths are decoded, resolved and then checked to still be
 * inside the route's directory, so `..`, `%2e%2e` and encoded separators cannot escape it;
 * dotfiles are never served (a `.env` copied into a build folder stays private).
 *
 * Not `sirv`: its production mode lists each folder once at start, so avatars uploaded later
 * under `/uploads/` would never be found, and its per-request mode is meant for development.
 */
export function createStaticHandler({ routes, documents }: StaticHandlerOptions): StaticHandler {
  const table = Object.entries(routes)
    .map(([prefix, target]) => {
      const app = typeof target === 'string' ? { root: target } : target;
      return { ...app, prefix: prefix.replace(/\/+$/, ''), root: resolve(app.root) };
    })
    .sort((a, b) => b.prefix.length - a.prefix.length);

  return async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = table.find(
      ({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`),
    );
    if (route === undefined) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return true;
    }
    const rest = pathname.slice(route.prefix.length);
    let file = await findFile(route.root, rest);
    // Client-side routes (`/admin/moderate/pending`) have no file: the app's page answers them.
    // Paths with an extension stay 404s, so a missing script is not answered with HTML.
    if (file === undefined && route.fallback !== undefined && !/\.\w+$/.test(rest)) {
      file = await findFile(route.root, route.fallback);
    }
    if (file === undefined) {
      res.writeHead(404, { 'content-type': CONTENT_TYPES['.txt'] }).end('Not found');
      return true;
    }
    const type = CONTENT_TYPES[extname(file.path).toLowerCase()] ?? FALLBACK_CONTENT_TYPE;
    // The build's compressed copies, and the best one the reader's browser takes.
    const copies = await Promise.all(
      ENCODINGS.map(async ({ name, suffix }) => ({
        name,
        file: await statFile(file.path + suffix),
      })),
    );
    const accept = req.headers['accept-encoding'];
    const chosen = copies.find((copy) => copy.file && acceptsEncoding(accept, copy.name));
    const sent = chosen?.file ?? file;
    const encoding = chosen?.name;
    const etag = `W/"${sent.size.toString(16)}-${Math.floor(sent.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': cacheControlFor(file.path, type),
      etag,
      'x-content-type-options': 'nosniff',
    };
    if (encoding !== undefined) headers['content-encoding'] = encoding;
    // Whether a copy exists is decided per file, so caches must key every answer on the header.
    if (copies.some((copy) => copy.file)) headers['vary'] = 'Accept-Encoding';
    if (type.startsWith('text/html')) {
      Object.assign(
        headers,
        await documents.headers({ framed: route.noFraming !== true, isolated: route.isolated }),
      );
    } else {
      // Bundles and avatars are public and sent without credentials: any site may load them, and
      // module scripts and fonts from another origin are only used with a CORS header.
      headers['access-control-allow-origin'] = '*';
    }
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    res.writeHead(200, { ...headers, 'content-length': String(sent.size) });
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    await pipeline(createReadStream(sent.path), res).catch(() => {
      // The reader went away mid-file; nothing to answer.
      res.destroy();
    });
    return true;
  };
}

interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The file at `path`, if it is one. */
async function statFile(path: string): Promise<FoundFile | undefined> {
  const stats = await stat(path).catch(() => undefined);
  return stats?.isFile() ? { path, size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
}

async function findFile(root: string, rest: string): Promise<FoundFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return undefined; // malformed escapes such as `%E0%A4%A`
  }
  if (decoded.includes('\0')) return undefined;
  const segments = decoded.split(/[/\\]+/).filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.'))) return undefined;
  const path = resolve(root, ...segments);
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  return (await statFile(path)) ?? (await statFile(resolve(path, INDEX_FILE)));
}
