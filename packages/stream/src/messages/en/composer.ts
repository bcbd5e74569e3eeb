import type { Message } from '../../i18n/createTranslator';

/** English: the composer area of the stream. */
export const messages = {} satisfies Record<string, Message>;
