import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/profile';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {};
