import { createMessage } from '@parley/contract';
import type { PopupToFrame } from '@parley/contract';

/**
 * Hands `message` from the popup to the frame that opened it, then closes the popup. Returns
 * false when there is no frame to hand it to (the page was opened directly, or the frame is gone).
 *
 * postMessage is the only way across: the frame is a third-party iframe whose storage browsers
 * partition or block, so nothing the popup stores (and no cookie) would ever reach it. The target
 * origin is exact, our own: an opener at any other origin never receives it.
 */
function handOver<K extends keyof PopupToFrame>(
  win: Window,
  type: K,
  payload: PopupToFrame[K],
): boolean {
  const opener = win.opener as Window | null;
  if (!opener || opener.closed) return false;
  opener.postMessage(createMessage<PopupToFrame, K>(type, payload), win.location.origin);
  win.close();
  return true;
}

/** Hands a new token to the frame that opened the popup (see {@link handOver}). */
export function handOverToken(win: Window, token: string): boolean {
  return handOver(win, 'token', { token });
}

/**
 * Hands the code of a provider connection to the frame that opened the popup (its profile), which
 * finishes the connection signed in: the popup holds no token.
 */
export function handOverConnection(win: Window, code: string): boolean {
  return handOver(win, 'providerConnect', { code });
}
