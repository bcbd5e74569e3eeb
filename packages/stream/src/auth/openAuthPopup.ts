import { AUTH_PATH, POPUP_TO_FRAME, readMessage } from '@parley/contract';
import type { PopupToFrame } from '@parley/contract';
import type { StreamEnv } from '../StreamContext';
import { setAuthNotice } from './authNotice';
import {
  POPUP_CLOSED_POLL_MS,
  POPUP_HEIGHT_PX,
  POPUP_WIDTH_PX,
  POPUP_WINDOW_NAME,
} from './defaults';

/** Which form the popup opens on. */
export type AuthMode = 'signin' | 'signup' | 'forgot';

// The flow waiting for a token, per frame window. The popup has one window name, so a second
// click re-uses (and re-navigates) the same popup; the earlier flow's listener must go with it.
const pending = new WeakMap<Window, () => void>();

/**
 * Opens the sign-in popup (`/embed/auth`) centred over the page and waits for its token, which
 * the session keeps. A blocked popup shows a notice in the auth bar instead. Returns a function
 * that stops waiting; the wait also ends by itself on sign-in or when the popup is closed.
 */
export function openAuthPopup(
  env: Pick<StreamEnv, 'window' | 'session' | 'bridge' | 'params'>,
  mode: AuthMode,
): () => void {
  const win = env.window;
  pending.get(win)?.();
  const origin = win.location.origin;
  const query = new URLSearchParams({ mode, locale: env.params.locale, theme: env.params.theme });
  // The story names the site, whose sign-in providers the popup offers.
  if (env.params.storyURL) query.set('story', env.params.storyURL);
  const popup = win.open(`${origin}${AUTH_PATH}?${query}`, POPUP_WINDOW_NAME, popupFeatures(win));
  if (!popup) {
    // Signing in in this frame instead is no way out: its storage may be partitioned and the
    // page is someone else's. Only the reader can allow the popup.
    setAuthNotice(env.session, { key: 'auth.notice.popupBlocked' });
    return () => undefined;
  }
  setAuthNotice(env.session, null);
  popup.focus();

  const stop = waitForPopup(
    win,
    popup,
    'token',
    ({ token }) => {
      void env.session.signIn(token);
      env.bridge.send('event', { name: 'signedIn' });
    },
    () => {
      if (pending.get(win) === stop) pending.delete(win);
    },
  );
  pending.set(win, stop);
  return stop;
}

/** The sign-in popup's window features: its size, centred over the page. */
export function popupFeatures(win: Window): string {
  const left = Math.round(win.screenX + (win.outerWidth - POPUP_WIDTH_PX) / 2);
  const top = Math.round(win.screenY + (win.outerHeight - POPUP_HEIGHT_PX) / 2);
  return `popup,width=${POPUP_WIDTH_PX},height=${POPUP_HEIGHT_PX},left=${left},top=${top}`;
}

/**
 * Waits for one message of `type` from `popup`, the window this frame opened: `onMessage` gets
 * its payload. The wait ends then, or once the popup has been closed for a whole poll, or when
 * the returned function is called; `onStop` is told each time it ends.
 */
export function waitForPopup<K extends keyof PopupToFrame>(
  win: Window,
  popup: Window,
  type: K,
  onMessage: (payload: PopupToFrame[K]) => void,
  onStop?: () => void,
): () => void {
  const origin = win.location.origin;
  const listener = (event: MessageEvent) => {
    // Only the window we opened, at our own origin: anything else on the page (the host, its
    // other frames, an extension) could otherwise post a token or code of its choosing and
    // sign the reader in to someone else's account.
    if (event.source !== popup || event.origin !== origin) return;
    const message = readMessage(POPUP_TO_FRAME, event.data);
    if (message?.type !== type) return;
    stop();
    onMessage(message.payload as PopupToFrame[K]);
  };
  // The popup posts and closes at once; across processes the frame can see `closed` before the
  // message arrives, so it stops only when the popup has been closed for a whole poll.
  let closedBefore = false;
  const timer = win.setInterval(() => {
    if (closedBefore) stop();
    closedBefore = popup.closed;
  }, POPUP_CLOSED_POLL_MS);
  const stop = () => {
    win.removeEventListener('message', listener);
    win.clearInterval(timer);
    onStop?.();
  };
  win.addEventListener('message', listener);
  return stop;
}
