import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/delete';

/** Spanish: the confirmation before deleting one's comment. */
export const messages: Record<keyof typeof en, Message> = {
  'thread.delete.title': '¿Borrar tu comentario?',
  'thread.delete.explain':
    'Su texto se borra para siempre. Las respuestas se quedan, bajo «Este comentario fue eliminado».',
  'thread.delete.confirm': 'Borrar',
  'thread.delete.cancel': 'Conservarlo',
};
