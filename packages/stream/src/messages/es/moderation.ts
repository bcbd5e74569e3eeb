import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/moderation';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {};
