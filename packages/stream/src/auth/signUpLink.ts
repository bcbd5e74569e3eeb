/**
 * The sign-up email's one-click link (`/embed/auth#sign-up=<email>&code=<code>`): the page it
 * opens finishes the sign-up (SignUpLinkFinish) and hands the new session to the sign-up window
 * still waiting for the code in the same browser (SignUpForm), which gives it to the frame as
 * ever. The two are Parley's own top-level pages, so a BroadcastChannel (same origin, same
 * storage partition) joins them; the frame, a third-party iframe, could not be reached that way,
 * which is why the waiting window relays.
 */

/** The channel both pages use. */
export const SIGN_UP_CHANNEL = 'parley-sign-up';

/** How long the link's page waits for the sign-up window to say it took the session. */
export const SIGN_UP_HANDOVER_WAIT_MS = 1500;

/** What goes over the channel. */
export type SignUpMessage =
  | { type: 'signedUp'; email: string; token: string; deviceToken: string | null }
  | { type: 'taken'; email: string };

/** The address and code in a link's fragment, or null when the fragment is not one. */
export function signUpLinkOf(hash: string): { email: string; code: string } | null {
  const fields = new URLSearchParams(hash.replace(/^#/, ''));
  const email = fields.get('sign-up');
  const code = fields.get('code');
  return email && code ? { email, code } : null;
}

/** The page's channel, where the browser has one (else the link's page says to sign in). */
export function openChannel(win: Window): BroadcastChannel | null {
  const Channel = (win as Window & { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
  return Channel === undefined ? null : new Channel(SIGN_UP_CHANNEL);
}
