import type { ErrorCode } from '@parley/transport';
import type { messages as accountErrors } from './en/accountErrors';
import type { messages as errors } from './en/errors';

// Every coded error has a text: in locales/en/errors.json (the first render's) or, for the codes
// only the account forms, image uploads and guests meet, locales/en/accountErrors.json (which
// travels with those chunks). A code added to the shared list without one fails to compile here.

/** Codes with no text in either area (none, or this file does not compile). */
type Untold = Exclude<`error.${ErrorCode}`, keyof typeof errors | keyof typeof accountErrors>;

/** True when every code has a text; otherwise its type names the codes that have none. */
export const EVERY_ERROR_HAS_TEXT: [Untold] extends [never] ? true : Untold = true;
