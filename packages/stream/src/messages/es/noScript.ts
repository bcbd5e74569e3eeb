import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/noScript';

/** Spanish: the server-rendered page without JavaScript. */
export const messages: Record<keyof typeof en, Message> = {
  'noScript.posting': 'Para comentar hace falta JavaScript.',
  'noScript.more': 'Más comentarios',
  'noScript.continue': 'Seguir este hilo',
  'noScript.allComments': 'Todos los comentarios',
};
