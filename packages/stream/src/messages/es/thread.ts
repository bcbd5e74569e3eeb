import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/thread';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {};
