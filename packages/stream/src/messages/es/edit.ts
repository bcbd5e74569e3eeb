import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/edit';

/** Spanish: the edit form. */
export const messages: Record<keyof typeof en, Message> = {
  'composer.editLabel': 'Edita tu comentario',
  'composer.editCountdown': {
    one: 'Puedes editarlo durante {count} segundo más',
    other: 'Puedes editarlo durante {count} segundos más',
  },
  'composer.save': 'Guardar',
  'composer.cancel': 'Cancelar',
};
