// Numbers of the sign-in popup, named once. The account rules' figures are @parley/contract's,
// shared with the server, which stays the judge.

/** Width of the sign-in popup, in CSS pixels. */
export const POPUP_WIDTH_PX = 400;

/** Height of the sign-in popup, in CSS pixels. */
export const POPUP_HEIGHT_PX = 600;

/** How often the frame checks whether the popup was closed without signing in, in ms. */
export const POPUP_CLOSED_POLL_MS = 500;

/** Window name of the popup: a second click re-uses the open popup instead of opening another. */
export const POPUP_WINDOW_NAME = 'parley-auth';

/** Longest wait for the server's answer to Sign out before the frame forgets the token anyway, in ms. */
export const SIGN_OUT_WAIT_MS = 3000;
