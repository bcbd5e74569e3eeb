import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Logger } from './createLogger';
import type { DocumentSecurity, InlineSources } from './documentSecurity';
import { HTML_CACHE_CONTROL, acceptsEncoding } from './serveStatic';

/**
 * `/embed/stream` with the thread already on the page: the server runs the frame's root query
 * (the same trusted document, through yoga, so the read cache answers it), renders the stream's
 * own components to HTML (`packages/stream/dist/ssr.js`, built from `ssr.tsx`) and sends the
 * frame's page with that HTML in `#parley-root`, the answer the frame hydrates from in
 * `#parley-data`, and the stream's CSS inline. The browser paints the thread from the first
 * response; the script then hydrates it without asking the server again.
 *
 * Anything else — no build, a story that cannot be shown (not installed, not permitted, no such
 * story), a failure — falls back to the static page, which loads the thread itself and says what
 * is wrong. Pages are compressed per request (they differ per story); Brotli at quality 5 takes
 * well under a millisecond for a page this size.
 */

/** Path of the stream's page. */
export const STREAM_PAGE_PATH = '/embed/stream';

/** What the server-side build of the stream exports (see packages/stream/src/ssr.tsx). */
export interface StreamRenderer {
  streamRequest(search: string): PageRequest;
  moreRequest(search: string, storyId: string): PageRequest | undefined;
  focusRequest(search: string): PageRequest | undefined;
  withPage(search: string, data: object, extras: { more?: object; focus?: object }): object;
  canRender(template: string): boolean;
  renderStreamDocument(
    search: string,
    data: object,
    parts: StreamPageParts,
  ): Promise<{ html: string; inline: InlineSources }>;
}

/** What the renderer fills: the static page, its stylesheet, the chunks to preload. */
export interface StreamPageParts {
  template: string;
  css: string;
  preload: readonly string[];
  /** The folder of the locales' catalog chunks (`<catalogs>/<locale>.js`), when built. */
  catalogs?: string;
}

/** A trusted document and its variables (see ssr.tsx). */
interface PageRequest {
  documentId: string;
  variables: Record<string, unknown>;
}

/**
 * `stream-files.json`, written by the build beside the page: the hashed names (under
 * `packages/stream/dist/`, served under `/embed/`) of the stylesheet the rendered page inlines and
 * of the chunks it preloads.
 */
interface StreamFileNames {
  css: string;
  preload: string[];
  catalogs?: string;
}

/** The built files the page is made of. */
export interface StreamPageFiles {
  /** packages/stream/dist/ssr.js */
  renderer: string;
  /** packages/stream/dist/stream.html (the static page, the template of the rendered one) */
  template: string;
  /** packages/stream/dist/stream-files.json ({@link StreamFileNames}) */
  names: string;
}

/** Options of {@link createStreamPage}. */
export interface StreamPageOptions {
  files: StreamPageFiles;
  /** Runs a GraphQL GET in process (yoga's fetch), as the caller, for the read cache and limits. */
  fetchGraphQL(url: string, init: RequestInit, req: IncomingMessage): Promise<Response>;
  /** The page's CSP (allowing the inline code it was written with) and other headers. */
  documents: DocumentSecurity;
  logger: Pick<Logger, 'warn'>;
}

/** Answers the stream's page rendered, or resolves false to let the static page answer. */
export type StreamPageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/**
 * The renderer and the parts of the page it fills (the template, the stylesheet to inline, the
 * chunks to preload, by their hashed names), or undefined when a build is missing.
 */
export async function loadStreamPage(
  files: StreamPageFiles,
): Promise<{ renderer: StreamRenderer; parts: StreamPageParts } | undefined> {
  if (![files.renderer, files.template, files.names].every((file) => existsSync(file))) return;
  const names = JSON.parse(readFileSync(files.names, 'utf8')) as StreamFileNames;
  const cssFile = join(dirname(files.names), names.css);
  if (!existsSync(cssFile)) return;
  return {
    renderer: (await import(pathToFileURL(files.renderer).href)) as StreamRenderer,
    parts: {
      template: readFileSync(files.template, 'utf8'),
      css: readFileSync(cssFile, 'utf8'),
      preload: names.preload.map((name) => `/embed/${name}`),
      ...(names.catalogs ? { catalogs: `/embed/${names.catalogs}` } : {}),
    },
  };
}

/** The handler, or undefined when the stream's server build is missing (`npm run build`). */
export async function createStreamPage(
  options: StreamPageOptions,
): Promise<StreamPageHandler | undefined> {
  const { files, fetchGraphQL, documents, logger } = options;
  const loaded = await loadStreamPage(files);
  if (!loaded) return;
  const { renderer, parts } = loaded;
  if (!renderer.canRender(parts.template)) {
    logger.warn('The stream page template has changed: serving it without server rendering');
    return;
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://parley.internal');
    let page: string;
    let inline: InlineSources;
    let stylesheets: string[];
    try {
      /** Runs a trusted document as the frame would (same-origin: a first visit creates the story). */
      const run = async ({ documentId, variables }: PageRequest) => {
        const query = new URLSearchParams({
          variables: JSON.stringify(variables),
          extensions: JSON.stringify({ persistedQuery: { documentId } }),
        });
        const response = await fetchGraphQL(
          `http://parley.internal/graphql?${query}`,
          { headers: { accept: 'application/json', 'sec-fetch-site': 'same-origin' } },
          req,
        );
        return (await response.json()) as { data?: { story?: { id: string } }; errors?: unknown[] };
      };
      // The permalinked (or continued) comment is asked beside the thread. Like the frame, a
      // page whose comment cannot be loaded (gone, withheld) shows the thread without it.
      const focusRequest = renderer.focusRequest(url.search);
      const [{ data, errors }, focus] = await Promise.all([
        run(renderer.streamRequest(url.search)),
        focusRequest && run(focusRequest),
      ]);
      if (!data?.story || errors?.length) return false;
      // The custom stylesheet the frame will add: its origin goes in the page's CSP.
      const custom = (data as { settings?: { customCssUrl?: string | null } }).settings;
      stylesheets = custom?.customCssUrl ? [custom.customCssUrl] : [];
      // A reader without JavaScript paging: the page after `after` in place of the first.
      const moreRequest = renderer.moreRequest(url.search, data.story.id);
      const more = moreRequest ? await run(moreRequest) : undefined;
      if (more && (!more.data?.story || more.errors?.length)) return false;
      ({ html: page, inline } = await renderer.renderStreamDocument(
        url.search,
        renderer.withPage(url.search, data, { more: more?.data, focus: focus?.data }),
        parts,
      ));
    } catch (error) {
      logger.warn({ err: error }, 'The stream page could not be rendered: serving the static page');
      return false;
    }
    const etag = `"${createHash('sha256').update(page).digest('base64url').slice(0, 27)}"`;
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': HTML_CACHE_CONTROL,
      etag,
      vary: 'Accept-Encoding',
      ...(await documents.headers({ framed: true, inline, stylesheets })),
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    const accept = req.headers['accept-encoding'];
    let body: Buffer = Buffer.from(page);
    if (acceptsEncoding(accept, 'br')) {
      body = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      headers['content-encoding'] = 'br';
    } else if (acceptsEncoding(accept, 'gzip')) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
