import type { Message } from '../../i18n/createTranslator';

/** English: the edit form (its own chunk, with EditForm). */
export const messages = {
  'composer.editLabel': 'Edit your comment',
  'composer.editCountdown': {
    one: 'You can edit for {count} more second',
    other: 'You can edit for {count} more seconds',
  },
  'composer.save': 'Save',
  'composer.cancel': 'Cancel',
} satisfies Record<string, Message>;
