import type { Message } from '../../i18n/createTranslator';

/** English: the thread area of the stream. */
export const messages = {} satisfies Record<string, Message>;
