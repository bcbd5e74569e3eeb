import {
  AUTO_RENDER_MARGIN,
  DARK_SCHEME_QUERY,
  DEFAULT_THEME,
  LOG_PREFIX,
  PERMALINK_PARAM,
} from './defaults';
import {
  DEFAULT_CONTAINER_ID,
  FRAME_TO_HOST,
  STREAM_PATH,
  createMessage,
  readMessage,
} from '@parley/contract';
import type {
  FrameToHost,
  HostToFrame,
  ResolvedTheme,
  StoryParams,
  StreamParams,
  Theme,
} from '@parley/contract';

/** Receives the stream's user-visible events (`signedIn`, `commentPosted`, …) with their data. */
export type StreamEventHandler = (name: string, data?: unknown) => void;

/** Options of {@link createStreamEmbed}; each can also be set by a `data-` attribute on the container. */
export interface StreamEmbedOptions {
  /** Id of the element the stream goes into. @default DEFAULT_CONTAINER_ID (`parley-thread`) */
  id?: string;
  /** The Parley server, e.g. `https://comments.example.com`. embed.js: the folder it was loaded from. */
  rootURL: string;
  /** The article's URL. @default the canonical link, else the page URL without hash and `commentID` */
  storyURL?: string;
  /**
   * Parley's id of the story (the console shows it), to keep a thread whose article moved to
   * another URL: the story is then found by it, not by the URL. Not the host's own id for the
   * article: an id Parley does not know shows no thread. @default undefined
   */
  storyID?: string;
  /** A comment to open (permalink). @default the page URL's `?commentID=` */
  commentID?: string;
  /**
   * Render when the container nears the viewport (at once with a `commentID`); `false` waits for
   * `render()`. The attribute form is `data-auto-render="false"`. @default true
   */
  autoRender?: boolean;
  /** Host SSO token: signs the reader in without the popup. @default undefined */
  accessToken?: string;
  /** Called when the frame reports the SSO token expired; its answer is sent as a new `login`. @default undefined */
  refreshAccessToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /**
   * `light`, `dark`, or `auto` (the host's `prefers-color-scheme`, followed live). Light by default
   * because most host pages are light whatever the reader's system says. @default DEFAULT_THEME
   */
  theme?: Theme;
  /** The host's accent color (a CSS color), used for buttons and links in the stream. @default undefined */
  accentColor?: string;
  /**
   * The thread's first order: `CREATED_AT_DESC` (newest), `CREATED_AT_ASC` (oldest),
   * `REPLIES_DESC`, `REACTIONS_DESC` or `BEST` (up and down votes); the reader can still change
   * it. @default `CREATED_AT_DESC`
   */
  sort?: string;
  /**
   * Language of the stream: a tag such as `fr` or `pt-BR` (README, "Languages").
   * @default the site's setting, else the language of the page around the thread (`lang`)
   */
  locale?: string;
  /** A stylesheet (http/https URL) the stream loads after its own. @default undefined */
  customCSSURL?: string;
  /** Receives every event the stream reports (see also `on()`). @default undefined */
  onEvent?: StreamEventHandler;
}

/** The handle of one embedded stream. */
export interface StreamEmbed {
  /** Creates the iframe now (for `autoRender: false`, or before it nears the viewport). */
  render(): void;
  /** Takes away the iframe and every listener and observer the embed added. */
  remove(): void;
  /** Signs the reader in with a host SSO token. */
  login(token: string): void;
  /** Signs the reader out. */
  logout(): void;
  /** Switches the theme at run time (`light`, `dark` or `auto`). */
  setTheme(theme: Theme): void;
  /**
   * Shows another story's thread in the same frame (a single-page site went to another article):
   * its `storyURL`, and its `storyID`, title and permalinked `commentID` when it has them.
   */
  setStory(story: StoryParams): void;
  /** Listens to one stream event by name (`commentPosted`, `signedIn`, …). */
  on(name: string, listener: (data: unknown) => void): void;
  /** Stops listening. */
  off(name: string, listener: (data: unknown) => void): void;
}

/** A container element, holding its embed so that a second call replaces the first. */
interface Container extends HTMLElement {
  parleyEmbed?: StreamEmbed;
}

/** What the loader does with each message of the frame. */
type FrameHandlers = { [K in keyof FrameToHost]: (payload: FrameToHost[K]) => void };

/**
 * Embeds the stream in the container: one iframe sized by the frame's height reports, talking
 * the protocol of @parley/contract (its PROTOCOL.md). Logs a `[parley]` error and returns undefined when the container
 * is missing.
 */
export function createStreamEmbed(options: StreamEmbedOptions): StreamEmbed | undefined {
  const id = options.id ?? DEFAULT_CONTAINER_ID;
  const el: Container | null = document.getElementById(id);
  if (!el) return void console.error(`${LOG_PREFIX} No element #${id}`);
  el.parleyEmbed?.remove();

  // `data-story-url` arrives as `storyUrl`; lower-casing both sides matches `storyURL` without a
  // table of names (which would cost bytes on every page load).
  const data: Record<string, string | undefined> = {};
  for (const key in el.dataset) data[key.toLowerCase()] = el.dataset[key];
  const opt = <K extends keyof StreamEmbedOptions>(key: K) =>
    options[key] ?? data[key.toLowerCase()];

  const origin = new URL(options.rootURL).origin;
  // A connection to the server opened now, while the reader is above the comments: the frame's
  // page then starts at once when they come near.
  document.head.append(
    Object.assign(document.createElement('link'), { rel: 'preconnect', href: origin }),
  );
  const hostURL = () => new URL(location.href);
  const permalink = () => hostURL().searchParams.get(PERMALINK_PARAM);
  const story = hostURL();
  const linked = story.searchParams.get(PERMALINK_PARAM);
  story.hash = '';
  // The permalink is not part of the story's URL. Deleting re-serializes the query (`%20` → `+`),
  // which would change the story's key, so only when there is one.
  if (linked !== null) story.searchParams.delete(PERMALINK_PARAM);
  const commentID = opt('commentID') ?? linked ?? undefined;
  const dark = window.matchMedia?.(DARK_SCHEME_QUERY);
  const listeners: Record<string, Set<(data: unknown) => void>> = {};
  let theme = opt('theme') ?? DEFAULT_THEME;
  let token = opt('accessToken');
  // The story `setStory` last gave: sent again each time the frame says it is ready.
  let next: StoryParams | undefined;
  // undefined: not rendered yet; null: removed, never to render again.
  let frame: HTMLIFrameElement | null | undefined;
  let observer: IntersectionObserver | undefined;

  const resolved = (): ResolvedTheme =>
    theme === 'dark' || (theme === 'auto' && dark?.matches) ? 'dark' : 'light';
  // Always to the server's exact origin: a frame navigated elsewhere never gets a token.
  const post = <K extends keyof HostToFrame>(type: K, payload: HostToFrame[K]) =>
    frame?.contentWindow?.postMessage(createMessage<HostToFrame, K>(type, payload), origin);
  // The host's look, as the `theme` message says it and as the frame's first parameters do.
  const looks = () => ({
    theme: resolved(),
    fontFamily: getComputedStyle(el).fontFamily,
    accentColor: opt('accentColor'),
  });
  const sendTheme = () => post('theme', looks());
  const login = (value: string) => post('login', { token: (token = value) });
  const onScheme = () => theme === 'auto' && sendTheme();
  // Back/forward: the frame shows the comment now in the host URL (or none).
  const onPopState = () => post('showComment', { commentId: permalink() });

  const handlers: FrameHandlers = {
    ready({ title }) {
      // Its name in the thread's language (a title is only ever text: an attribute, not markup).
      if (title && frame) frame.title = title;
      sendTheme();
      if (token) login(token);
      // A story set since the frame was made (its load, or a reload, would show the one before).
      if (next) post('story', next);
    },
    height({ height }) {
      if (frame) frame.style.height = `${height}px`;
    },
    permalink({ commentId }) {
      const url = hostURL();
      if (commentId === null) url.searchParams.delete(PERMALINK_PARAM);
      else url.searchParams.set(PERMALINK_PARAM, commentId);
      // The router's state is kept: single-page apps read it on back/forward.
      if (url.href !== location.href) history.pushState(history.state, '', url);
    },
    event({ name, data }) {
      options.onEvent?.(name, data);
      listeners[name]?.forEach((listener) => listener(data));
    },
    tokenExpired() {
      // The same (still expired) token again would loop: login, refused, tokenExpired, login…
      void Promise.resolve(options.refreshAccessToken?.()).then(
        (value) => value && value !== token && login(value),
      );
    },
  };
  const onMessage = (event: MessageEvent) => {
    const message = readMessage(FRAME_TO_HOST, event.data);
    // Only our frame, served from the server's origin, in a known shape.
    // A detached frame has no window: `null === null` must not let a sourceless message in.
    if (
      message &&
      frame?.contentWindow &&
      event.source === frame.contentWindow &&
      event.origin === origin
    ) {
      handlers[message.type](message.payload as never);
    }
  };

  // One function for adding and removing, so that remove() cannot forget one.
  const listen = (method: 'addEventListener' | 'removeEventListener') => {
    window[method]('message', onMessage as EventListener);
    window[method]('popstate', onPopState);
    dark?.[method]('change', onScheme);
  };

  const embed: StreamEmbed = (el.parleyEmbed = {
    render() {
      observer?.disconnect();
      if (frame !== undefined) return;
      const params: StreamParams = {
        // Moderators see stories by title; the server keeps the first one it is given.
        storyTitle: document.title,
        // The page's language: the frame's when neither the option nor the site's setting names one.
        lang: document.documentElement.lang,
        // A story set before the frame was made is the one it loads (and need not send again),
        // with none of the options' story parameters.
        ...(next || {
          storyURL:
            opt('storyURL') ??
            document.querySelector<HTMLLinkElement>('link[rel=canonical]')?.href ??
            story.href,
          storyID: opt('storyID'),
          commentID,
        }),
        origin: location.origin,
        ...looks(),
        locale: opt('locale'),
        customCSSURL: opt('customCSSURL'),
        sort: opt('sort'),
      };
      next = undefined;
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
      frame = document.createElement('iframe');
      frame.title = 'Comments';
      // Not `loading="lazy"`: the frame is made only once its container is near the screen (the
      // observer below), and a lazy frame would wait for a layout before it starts to load.
      // Block, not inline: an inline frame leaves a gap under it for text descenders.
      frame.style.cssText = 'border:0;width:100%;display:block';
      // The src before insertion: a frame navigated once it is in the page can add an entry to
      // the host's history, and the back button would then step through the frame.
      frame.src = `${options.rootURL.replace(/\/+$/, '')}${STREAM_PATH}?${query}`;
      // In place of what the container held: the comments' HTML a host included for crawlers
      // (/api/stories/comments.html), a "loading" line. One thread on the page, never two.
      el.replaceChildren(frame);
    },
    remove() {
      observer?.disconnect();
      frame?.remove();
      frame = null;
      listen('removeEventListener');
      if (el.parleyEmbed === embed) delete el.parleyEmbed;
    },
    login,
    logout() {
      token = undefined;
      post('logout', {});
    },
    setTheme(value) {
      theme = value;
      sendTheme();
    },
    setStory(value) {
      post('story', (next = value));
    },
    on(name, listener) {
      (listeners[name] ??= new Set()).add(listener);
    },
    off(name, listener) {
      listeners[name]?.delete(listener);
    },
  });
  listen('addEventListener');

  if (`${opt('autoRender')}` !== 'false') {
    if (commentID || !window.IntersectionObserver) embed.render();
    else {
      observer = new IntersectionObserver(
        (entries) => entries.some((entry) => entry.isIntersecting) && embed.render(),
        { rootMargin: AUTO_RENDER_MARGIN },
      );
      observer.observe(el);
    }
  }
  return embed;
}
