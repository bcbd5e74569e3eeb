// The stream rendered on the server: the first page of a thread as HTML, from the same components
// the frame hydrates. Built for Node by rollup (packages/stream/dist/ssr.js); the server loads it
// to answer /embed/stream with the thread already on the page (see the server's streamPage.ts).
import { directionOf } from '@parley/contract';
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
import { messages as noScriptEn } from './messages/en/noScript';
import type { Locale } from './messages/locales';
import type { StreamEnv } from './StreamContext';
import { PERMALINK_QUERY } from './usePermalink';
import type { FocusedComment } from './usePermalink';
import { commentDomId } from './CommentView';

/** The id of the root query, as the frame would send it. */
export const STREAM_DOCUMENT_ID = documentId(STREAM_QUERY);

/**
 * The root query's answer, and the comment a permalink points at when the page shows it above the
 * thread (see {@link renderStream}).
 */
export type StreamQueryData = ResultOf<typeof STREAM_QUERY> & { permalink?: FocusedComment };

/** A trusted document and its variables, which the server runs as the frame would. */
export interface PageRequest {
  documentId: string;
  variables: Record<string, unknown>;
}

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
export function moreRequest(search: string, storyId: string): PageRequest | undefined {
  const after = new URLSearchParams(search).get('after');
  if (!after) return undefined;
  const { sort } = streamVariables(readStreamParams(search));
  return {
    documentId: documentId(MORE_COMMENTS_QUERY),
    variables: { id: storyId, first: TOP_LEVEL_PAGE_SIZE, after, sort },
  };
}

/**
 * The comment the page opens on, as the frame asks for it: a permalink's (`commentID`), or the
 * one whose deep replies a reader without JavaScript continues with (`thread`, the link the
 * page puts beside "Continue this thread").
 */
export function focusRequest(search: string): PageRequest | undefined {
  const query = new URLSearchParams(search);
  const id = query.get('thread') || query.get('commentID');
  return id ? { documentId: documentId(PERMALINK_QUERY), variables: { id } } : undefined;
}

/** The answers of {@link moreRequest} and {@link focusRequest}, where they were asked. */
export interface PageExtras {
  more?: { story?: { page?: unknown } | null };
  focus?: { comment?: FocusedComment | null };
}

/**
 * `data` with `more`'s page as the story's first page; with `thread`, the continued comment as
 * the thread's only one (its replies as deep as the first page goes); with `commentID`, the
 * permalinked comment (which {@link renderStream} shows only if it is not on the page already).
 */
export function withPage(
  search: string,
  data: StreamQueryData,
  { more, focus }: PageExtras = {},
): StreamQueryData {
  if (!data.story) return data;
  type Page = NonNullable<StreamQueryData['story']>['comments'];
  // A comment of this story only, as the frame checks: one from elsewhere is not shown.
  const comment = focus?.comment?.story.id === data.story.id ? focus.comment : undefined;
  if (comment && new URLSearchParams(search).get('thread')) {
    const page: Page = {
      pageInfo: { hasNextPage: false, endCursor: null },
      edges: [{ cursor: '', node: comment }],
    };
    return { ...data, story: { ...data.story, comments: page } };
  }
  const page = more?.story?.page as Page | undefined;
  const paged = page ? { ...data, story: { ...data.story, comments: page } } : data;
  return comment ? { ...paged, permalink: comment } : paged;
}

/** The rendered thread, and the root element's attributes the frame would set itself. */
export interface RenderedStream {
  /** The markup of `#parley-root`. */
  html: string;
  /** `lang` of the document (its `dir` follows). */
  lang: Locale;
  /** The catalog with the text only a page without JavaScript shows. */
  noScript: Readonly<Record<string, Message>>;
  /** `data-theme` of the document (and its `color-scheme`). */
  theme: 'light' | 'dark';
  /** The answer the markup was rendered from, for the frame to hydrate from. */
  data: StreamQueryData;
}

/**
 * Renders the anonymous view of the first page, as the frame's first render would show it with
 * `data` (the root query's answer for {@link streamRequest}). Nothing here touches a network,
 * storage or a window: effects do not run on the server.
 */
export async function renderStream(search: string, data: StreamQueryData): Promise<RenderedStream> {
  // A permalinked comment already on the page is marked there; the frame loads it alone (and
  // shows it above the thread) only when it is not, so the page does the same.
  const { permalink, ...thread } = data;
  const rendered = await renderOnce(search, thread);
  return permalink && !rendered.html.includes(`id="${commentDomId(permalink.id)}"`)
    ? { ...(await renderOnce(search, data)), data }
    : { ...rendered, data: thread };
}

async function renderOnce(
  search: string,
  data: StreamQueryData,
): Promise<Omit<RenderedStream, 'data'>> {
  const params = readStreamParams(search, data.settings?.locale);
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
    lastHeard: () => undefined,
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
  return {
    html: renderToString(<App env={env} />),
    lang: params.locale,
    theme: params.theme,
    // The text a page without JavaScript shows (English's is not in the first render's catalog).
    noScript: { ...noScriptEn, ...catalog },
  };
}

/** The static page's files (`dist/stream.html`, `dist/assets/stream-<hash>.css`). */
export interface StreamPageParts {
  template: string;
  css: string;
  /**
   * URLs of the chunks the hydration loads before it runs (the stored token's storage): the page
   * adds them as `modulepreload` with the stream's script, so they download beside it instead of
   * after it has run.
   */
  preload?: readonly string[];
  /** URL of the folder of the locales' catalog chunks (`<catalogs>/<locale>.js`). */
  catalogs?: string;
}

const STYLESHEET = /<link rel="stylesheet" href="[^"]+\/stream-[\w-]+\.css"[^>]*>/;
const ROOT = '<main id="parley-root"></main>';
const SCRIPT = /<script type="module" src="([^"]+)"><\/script>/;
/** How long the page waits for a frame to paint before it loads its script anyway, in ms. */
const SCRIPT_FALLBACK_MS = 100;

/** True when `template` is a page {@link renderStreamPage} can fill. */
export function canRender(template: string): boolean {
  return STYLESHEET.test(template) && SCRIPT.test(template) && template.includes(ROOT);
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
  parts: StreamPageParts,
): Promise<string> {
  return (await renderStreamDocument(search, data, parts)).html;
}

/**
 * What the page runs or applies inline, exactly as written into it: the server allows these (by
 * their hashes) in the page's Content-Security-Policy, and nothing else inline — so markup that
 * got into a comment by any other way than the sanitizer still neither runs nor styles.
 */
export interface InlineSources {
  /** Contents of the inline `<script>` elements that run (not the JSON data). */
  scripts: string[];
  /** Contents of the inline `<style>` elements. */
  styles: string[];
  /** Values of the `style` attributes (as the browser reads them, unescaped). */
  styleAttributes: string[];
}

/** {@link renderStreamPage}'s page, with the inline sources it wrote. */
export async function renderStreamDocument(
  search: string,
  data: StreamQueryData,
  { template, css, preload: chunks = [], catalogs }: StreamPageParts,
): Promise<{ html: string; inline: InlineSources }> {
  const rendered = await renderStream(search, data);
  const { lang, theme, noScript } = rendered;
  // A reader of another language waits for their catalog before the page hydrates: it loads with
  // the rest, not after the script asks for it.
  const preload = lang === 'en' || !catalogs ? chunks : [...chunks, `${catalogs}/${lang}.js`];
  // Without JavaScript: the composer gives way to a note, and "Load more" and "Continue this
  // thread" are links to other pages of this same frame, which the server renders as it rendered
  // this one: the next page (`after`), and a deep comment with its replies (`thread`).
  const t = createTranslator(lang, noScript as Readonly<Record<keyof typeof noScriptEn, Message>>);
  const link = (change: Record<string, string | undefined>) => {
    const query = new URLSearchParams(search);
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) query.delete(name);
      else query.set(name, value);
    }
    return `?${escapeAttribute(query.toString())}`;
  };
  const { hasNextPage, endCursor } = rendered.data.story?.comments.pageInfo ?? {};
  const posting = `<noscript><p class="parley-notice">${t('noScript.posting')}</p></noscript>`;
  const more =
    hasNextPage && endCursor
      ? `<noscript><p><a class="parley-more" href="${link({ after: endCursor, commentID: undefined })}">${t('noScript.more')}</a></p></noscript>`
      : '';
  // A continued thread's page leads back to the whole thread (with or without scripts).
  const back = new URLSearchParams(search).get('thread')
    ? `<p><a class="parley-more" href="${link({ thread: undefined, after: undefined })}">${t('noScript.allComments')}</a></p>`
    : '';
  const html = rendered.html.replace(
    /<button data-continue="([\w-]+)"[^>]*>[\s\S]*?<\/button>/g,
    (button, id: string) =>
      `${button}<noscript><a class="parley-link" href="${link({ thread: id, after: undefined, commentID: undefined })}">${t('noScript.continue')}</a></noscript>`,
  );
  let script = '';
  const style = rootStyle(search, theme);
  const noScriptStyle =
    '.parley-composer,.parley-authbar,.parley-sort,.parley-actions,[data-continue]{display:none}';
  const inert = "document.getElementById('parley-root').inert=true";
  const page = template
    // The script is added once the thread is painted (below), not found in the head.
    .replace(SCRIPT, (_tag, src: string) => {
      script = src;
      return '';
    })
    .replace(
      /<html lang="[^"]*">/,
      () =>
        `<html lang="${lang}" dir="${directionOf(lang)}" data-theme="${theme}" style="${escapeAttribute(style)}">`,
    )
    // The link stays for what reads it (the panels' stylesheet is its `data-panels`): loaded
    // after the paint, never applied.
    .replace(
      STYLESHEET,
      (link) =>
        `<style>${css}</style>${link.replace('<link ', '<link media="not all" ')}` +
        // Without scripts, the controls that need them go too: signing in, sorting, replying,
        // reacting, reporting (the links that stand in for the rest work).
        `<noscript><style>${noScriptStyle}</style></noscript>`,
    )
    .replace(
      ROOT,
      () =>
        `${back}${posting}<main id="parley-root">${html}</main>${more}<script>${inert}</script>` +
        `<script type="application/json" id="parley-data">${scriptJson(rendered.data)}</script>` +
        `<script>${loadAfterPaint(script, preload)}</script>`,
    );
  return {
    html: page,
    inline: {
      scripts: [inert, loadAfterPaint(script, preload)],
      styles: [css, noScriptStyle],
      styleAttributes: [style],
    },
  };
}

/**
 * An inline script that adds the stream's module script, and `modulepreload` links for the chunks
 * it reads first, after the next frame: once the thread the page came with is painted. In the
 * head, on a fast connection, the script arrived, ran and hydrated before the browser painted
 * anything (bench:read on this machine: paint median 205 → 151 ms, bytes before the paint
 * 42.5 → 9.6 KB). Nothing is lost meanwhile: the root stays inert until it is hydrated.
 */
function loadAfterPaint(script: string, preload: readonly string[]): string {
  if (!script) return '';
  // A frame off screen gets no animation frames (a permalink's frame is made at once, often
  // below the fold, and must run to size itself and scroll to the comment): a timer then does it.
  return (
    'let go=()=>{go=()=>{};const d=document,add=(t,a)=>d.head.append(Object.assign(d.createElement(t),a));' +
    `for(const href of ${scriptJson(preload)})add('link',{rel:'modulepreload',href});` +
    `add('script',{type:'module',src:${scriptJson(script)}})};` +
    `requestAnimationFrame(()=>setTimeout(()=>go()));setTimeout(()=>go(),${SCRIPT_FALLBACK_MS})`
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
  return style;
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
