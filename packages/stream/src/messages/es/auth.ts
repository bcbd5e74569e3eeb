import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/auth';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {};
