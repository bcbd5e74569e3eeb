// The typed postMessage protocol between the host page (embed.js), the stream frame and the
// sign-in popup. Documented in ../PROTOCOL.md; both sides validate the shape and `event.source`.
// Kept tiny on purpose: the loader carries it inside its 1.75 KB budget.

/** Namespace and version every Parley message carries; anything else is ignored. */
export const PARLEY_NAMESPACE = 'parley:1';

/** The container the loader looks for when no `id` is given. */
export const DEFAULT_CONTAINER_ID = 'parley-thread';

/** Path of the stream page on the Parley server. */
export const STREAM_PATH = '/embed/stream';

/** Path of the sign-in popup on the Parley server. */
export const AUTH_PATH = '/embed/auth';

/** The frame's theme once `auto` has been resolved by the host. */
export type ResolvedTheme = 'light' | 'dark';

/** Theme option of the loader: `auto` follows the host's `prefers-color-scheme`. */
export type Theme = ResolvedTheme | 'auto';

/** Query parameters of the stream page (set by the loader, read by the frame). */
export interface StreamParams {
  /** Story URL (canonical link, else the location without hash). */
  storyURL?: string;
  /** Parley's id of the story (not the host's own id for the article): found by it, not by URL. */
  storyID?: string;
  /** The article's title (the page's), so a story created on first use has one. */
  storyTitle?: string;
  /** Comment to open and mark (permalink). */
  commentID?: string;
  /** Exact origin of the host page: the frame posts only there and accepts messages only from it. */
  origin: string;
  /** Initial theme (already resolved). */
  theme?: ResolvedTheme;
  /**
   * The language the site owner chose for the thread (the loader's `locale` option): a tag such as
   * `fr` or `pt-BR`. Before the site's setting and `lang`.
   */
  locale?: string;
  /**
   * The language the host page says it is in (its `<html lang>`): the frame's language when
   * neither the `locale` option nor the site's setting names one.
   */
  lang?: string;
  /** Stylesheet the site owner adds to the stream. */
  customCSSURL?: string;
  /**
   * The host's font and accent, as its later `theme` message will say, so the page the server
   * renders already has them (nothing moves when the frame applies that message).
   */
  fontFamily?: string;
  accentColor?: string;
  /**
   * The thread's first order (`CREATED_AT_DESC`, the default, `CREATED_AT_ASC`, `REPLIES_DESC`,
   * `REACTIONS_DESC`): the site's choice, which the reader can change.
   */
  sort?: string;
}

/** Messages the frame sends to the host page. */
export interface FrameToHost {
  /**
   * The frame has loaded and listens; the host answers with `theme` and, if it has one, `login`.
   * `title`: the frame's name in the thread's language ("Comments"), for the iframe's `title`.
   */
  ready: { title?: string };
  /** The frame's content height in CSS pixels. */
  height: { height: number };
  /** The reader chose "share" or opened a comment: the host puts it in its URL (`null` clears). */
  permalink: { commentId: string | null };
  /** A user-visible event forwarded to `onEvent` / `on()` (posted, signedIn, …). */
  event: { name: string; data?: unknown };
  /** The host's SSO token was refused as expired: the host may call `refreshAccessToken`. */
  tokenExpired: Record<string, never>;
}

/** Messages the host page sends to the frame. */
export interface HostToFrame {
  /** Theme and the host's look, as CSS custom properties. */
  theme: { theme: ResolvedTheme; fontFamily?: string; accentColor?: string };
  /** Sign in with a host SSO token. */
  login: { token: string };
  /** Sign out. */
  logout: Record<string, never>;
  /** Back/forward changed the host URL's `commentID` (`null`: none). */
  showComment: { commentId: string | null };
  /**
   * A single-page host went to another article: the frame shows that story's thread in place
   * (same frame, same connection and session), as `storyURL`, `storyID`, `storyTitle` and
   * `commentID` would at load.
   */
  story: StoryParams;
}

/** The story part of the stream's parameters: what a `story` message switches. */
export type StoryParams = Required<Pick<StreamParams, 'storyURL'>> &
  Pick<StreamParams, 'storyID' | 'storyTitle' | 'commentID'>;

/** Messages the sign-in popup sends to the frame that opened it. */
export interface PopupToFrame {
  /** Signed in or signed up: the frame keeps this token in its storage. */
  token: { token: string };
  /**
   * Back from a provider the profile asked to connect: the frame, signed in as the account that
   * asked, redeems this one-time code (`redeemProviderSignIn`) to finish the connection.
   */
  providerConnect: { code: string };
}

/** One message of a direction `M`: the envelope with its type and payload. */
export type ParleyMessage<M, K extends keyof M = keyof M> = K extends keyof M
  ? { ns: typeof PARLEY_NAMESPACE; type: K; payload: M[K] }
  : never;

/** Checks a payload's shape for one message type. */
export type PayloadGuards<M> = { [K in keyof M]: (payload: Record<string, unknown>) => boolean };

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringOrNull = (value: unknown): boolean => value === null || isString(value);
const always = () => true;

/** Shapes of the frame's messages (the loader validates with these). */
export const FRAME_TO_HOST: PayloadGuards<FrameToHost> = {
  ready: always,
  height: (p) => typeof p.height === 'number' && p.height >= 0 && p.height < 1e6,
  permalink: (p) => p.commentId === null || isString(p.commentId),
  event: (p) => isString(p.name),
  tokenExpired: always,
};

/** Shapes of the host's messages (the frame validates with these). */
export const HOST_TO_FRAME: PayloadGuards<HostToFrame> = {
  theme: (p) => p.theme === 'light' || p.theme === 'dark',
  login: (p) => isString(p.token) && p.token !== '',
  logout: always,
  showComment: (p) => isStringOrNull(p.commentId),
  // Only the URL is checked, to keep the frame's first render small: the others go to the server
  // as query variables, which refuses a non-string (the frame then says the thread could not load).
  story: (p) => isString(p.storyURL) && p.storyURL !== '',
};

/** Shapes of the popup's messages. */
export const POPUP_TO_FRAME: PayloadGuards<PopupToFrame> = {
  token: (p) => isString(p.token) && p.token !== '',
  providerConnect: (p) => isString(p.code) && p.code !== '',
};

/** Builds an envelope. */
export function createMessage<M, K extends keyof M>(type: K, payload: M[K]): ParleyMessage<M, K> {
  return { ns: PARLEY_NAMESPACE, type, payload } as ParleyMessage<M, K>;
}

/**
 * Returns the message when `data` is a Parley envelope of a known type with a valid payload,
 * else undefined (other scripts' messages, older or newer versions, forged shapes).
 */
export function readMessage<M>(
  guards: PayloadGuards<M>,
  data: unknown,
): ParleyMessage<M> | undefined {
  // Written for size (the loader carries it): `?.` reads undefined from null and primitives, and
  // `Object(p) === p` holds for objects only.
  const message = data as {
    ns?: unknown;
    type?: keyof M;
    payload?: Record<string, unknown>;
  } | null;
  const payload = message?.payload;
  return message?.ns === PARLEY_NAMESPACE &&
    typeof message.type === 'string' &&
    Object.hasOwn(guards, message.type) &&
    Object(payload) === payload &&
    guards[message.type](payload as Record<string, unknown>)
    ? (data as ParleyMessage<M>)
    : undefined;
}
