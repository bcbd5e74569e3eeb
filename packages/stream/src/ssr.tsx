// The stream rendered on the server: the first page of a thread as HTML, from the same components
// the frame hydrates. Built for Node by rollup (packages/stream/dist/ssr.js); the server loads it
// to answer /embed/stream with the thread already on the page (see the server's streamPage.ts).
import { Client } from '@urql/core';
import { renderToString } from 'preact-render-to-string';
import { documentId } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import type { Transport } from '@parley/transport';
import { App, STREAM_QUERY, streamVariables } from './App';
import { SAFE_COLOR, SAFE_FONT } from './applyTheme';
import { MORE_COMMENTS_QUERY, TOP_LEVEL_PAGE_SIZE } from './Thread';
import { createSession } from './createSession';
import { createThreadStore } from './createThreadStore';
import { createTranslator } from './i18n/createTranslator';
import type { Message } from './i18n/createTranslator';
import { loadCatalog } from './messages';
import type { FirstMessageKey, LazyMessageKey } from './messages';
import { readStreamParams } from './params';
import type { Locale } from './params';
import { messages as noScriptEn } from './messages/en/noScript';
import { messages as noScriptEs } from './messages/es/noScript';
import type { StreamEnv } from './StreamContext';

/** The id of the root query, as the frame would send it. */
export const STREAM_DOCUMENT_ID = documentId(STREAM_QUERY);

/** The root query's answer. */
export type StreamQueryData = ResultOf<typeof STREAM_QUERY>;

/** What the server needs to run the root query for a frame URL's query string. */
export function streamRequest(search: string): {
  documentId: string;
  variables: ReturnType<typeof streamVariables>;
} {
  return { documentId: STREAM_DOCUMENT_ID, variables: streamVariables(readStreamParams(search)) };
}

/**
 * The page after `after=<cursor>` of the frame's URL, for a reader without JavaScript: the server
 * asks for it too and puts it in place of the first page (see {@link withPage}).
 */
export function moreRequest(
  search: string,
  storyId: string,
): { documentId: string; variables: Record<string, unknown> } | undefined {
  const after = new URLSearchParams(search).get('after');
  if (!after) return undefined;
  return {
    documentId: documentId(MORE_COMMENTS_QUERY),
    variables: { id: storyId, first: TOP_LEVEL_PAGE_SIZE, after, sort: 'CREATED_AT_DESC' },
  };
}

/** `data` with `more`'s page as the story's first page. */
export function withPage(
  data: StreamQueryData,
  more: { story?: { page?: unknown } | null } | undefined,
): StreamQueryData {
  const page = more?.story?.page as NonNullable<StreamQueryData['story']>['comments'] | undefined;
  return page && data.story ? { ...data, story: { ...data.story, comments: page } } : data;
}

/** Text only a page without JavaScript shows, by locale. */
const NO_SCRIPT: Record<Locale, Readonly<Record<keyof typeof noScriptEn, Message>>> = {
  en: noScriptEn,
  es: noScriptEs,
};

/** The rendered thread, and the root element's attributes the frame would set itself. */
export interface RenderedStream {
  /** The markup of `#parley-root`. */
  html: string;
  /** `lang` of the document. */
  lang: string;
  /** `data-theme` of the document (and its `color-scheme`). */
  theme: 'light' | 'dark';
}

/**
 * Renders the anonymous view of the first page, as the frame's first render would show it with
 * `data` (the root query's answer for {@link streamRequest}). Nothing here touches a network,
 * storage or a window: effects do not run on the server.
 */
export async function renderStream(search: string, data: StreamQueryData): Promise<RenderedStream> {
  const params = readStreamParams(search);
  const catalog = await loadCatalog(params.locale);
  const memory: Transport['storage'] = {
    backend: 'memory',
    get: async () => undefined,
    set: async () => undefined,
    remove: async () => undefined,
    keys: async () => [],
    usage: async () => ({ bytes: 0, maxBytes: 0 }),
  };
  const transport: Transport = {
    // Never asked: the first page comes from `data`, and effects (live updates) never run here.
    client: new Client({ url: 'http://parley.invalid/graphql', exchanges: [] }),
    storage: memory,
    status: 'idle',
    reportError: () => undefined,
    onStatusChange: () => () => undefined,
    tokenChanged: () => undefined,
    dispose: async () => undefined,
  };
  const env: StreamEnv = {
    transport,
    params,
    bridge: { send: () => undefined, on: () => () => undefined, dispose: () => undefined },
    session: createSession(memory),
    t: createTranslator<FirstMessageKey, LazyMessageKey>(params.locale, catalog),
    window: undefined as unknown as Window,
    thread: createThreadStore(),
    initial: data,
  };
  return { html: renderToString(<App env={env} />), lang: params.locale, theme: params.theme };
}

/** The static page's files (`dist/stream.html`, `dist/assets/stream.css`). */
export interface StreamPageParts {
  template: string;
  css: string;
}

const STYLESHEET = /<link rel="stylesheet" href="[^"]+\/stream\.css" ?\/?>/;
const ROOT = '<main id="parley-root"></main>';

/** True when `template` is a page {@link renderStreamPage} can fill. */
export function canRender(template: string): boolean {
  return STYLESHEET.test(template) && template.includes(ROOT);
}

/**
 * The frame's page with the thread in it: the static page with {@link renderStream}'s HTML in
 * `#parley-root`, the answer to hydrate from in `#parley-data`, the stylesheet inline, and the
 * root made inert until the script has hydrated it (a click meanwhile would be lost) — only where
 * scripts run, so a reader without them keeps working links.
 */
export async function renderStreamPage(
  search: string,
  data: StreamQueryData,
  { template, css }: StreamPageParts,
): Promise<string> {
  const { html, lang, theme } = await renderStream(search, data);
  // Without JavaScript: the composer gives way to a note, and "Load more" is a link to the next
  // page of this same frame (the server renders it as it rendered this one).
  const t = createTranslator(lang, NO_SCRIPT[lang as Locale] ?? noScriptEn);
  const { hasNextPage, endCursor } = data.story?.comments.pageInfo ?? {};
  const next = new URLSearchParams(search);
  if (endCursor) next.set('after', endCursor);
  const posting = `<noscript><p class="parley-notice">${t('noScript.posting')}</p></noscript>`;
  const older =
    hasNextPage && endCursor
      ? `<noscript><p><a class="parley-more" href="?${escapeAttribute(next.toString())}">${t('noScript.older')}</a></p></noscript>`
      : '';
  return (
    template
      .replace(
        /<html lang="[^"]*">/,
        () => `<html lang="${lang}" data-theme="${theme}" style="${rootStyle(search, theme)}">`,
      )
      // The link stays for what finds files beside it (the panels' CSS): loaded after the
      // paint, never applied.
      .replace(
        STYLESHEET,
        (link) =>
          `<style>${css}</style>${link.replace('<link ', '<link media="not all" ')}` +
          '<noscript><style>.parley-composer{display:none}</style></noscript>',
      )
      .replace(
        ROOT,
        () =>
          `${posting}<main id="parley-root">${html}</main>${older}<script>document.getElementById('parley-root').inert=true</script>` +
          `<script type="application/json" id="parley-data">${scriptJson(data)}</script>`,
      )
  );
}

/**
 * The root's style as `applyTheme` will set it from the host's `theme` message: the color scheme,
 * and the host's font and accent from the loader's parameters (checked the same way).
 */
function rootStyle(search: string, theme: string): string {
  const params = new URLSearchParams(search);
  const font = params.get('fontFamily');
  const accent = params.get('accentColor');
  let style = `color-scheme:${theme}`;
  if (font && SAFE_FONT.test(font)) style += `;--parley-font:${font}`;
  if (accent && SAFE_COLOR.test(accent)) style += `;--parley-accent:${accent}`;
  return escapeAttribute(style);
}

/** `value` safe inside a double-quoted attribute. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** JSON that cannot end its `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
