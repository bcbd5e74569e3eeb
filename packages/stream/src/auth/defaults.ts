// Numbers of the sign-in flow, named once. The account limits mirror the server's
// (packages/server/src/defaults.ts): the browser bundles cannot import server code, and the
// server stays the judge; these only let the form say what is wrong before a round trip.

/** Width of the sign-in popup, in CSS pixels. */
export const POPUP_WIDTH_PX = 400;

/** Height of the sign-in popup, in CSS pixels. */
export const POPUP_HEIGHT_PX = 600;

/** How often the frame checks whether the popup was closed without signing in, in ms. */
export const POPUP_CLOSED_POLL_MS = 500;

/** Window name of the popup: a second click re-uses the open popup instead of opening another. */
export const POPUP_WINDOW_NAME = 'parley-auth';

/** Fewest characters in a username (server: USERNAME_MIN_LENGTH). */
export const USERNAME_MIN_LENGTH = 3;

/** Most characters in a username (server: USERNAME_MAX_LENGTH). */
export const USERNAME_MAX_LENGTH = 30;

/** Characters a username may hold: letters of any script, digits, `_` and `.` (server: USERNAME_PATTERN). */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_.]+$/u;

/** Most characters in an email address (server: EMAIL_MAX_LENGTH). */
export const EMAIL_MAX_LENGTH = 100;

/** Fewest characters in a new password (server: PASSWORD_MIN_LENGTH). */
export const PASSWORD_MIN_LENGTH = 8;

/** Longest wait for the server's answer to Sign out before the frame forgets the token anyway, in ms. */
export const SIGN_OUT_WAIT_MS = 3000;

/** Digits of the code a sign-up emails (server: SIGN_UP_CODE.digits). */
export const SIGN_UP_CODE_DIGITS = 6;
