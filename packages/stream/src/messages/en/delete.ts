import type { Message } from '../../i18n/createTranslator';

/** English: the confirmation before a reader deletes their comment (its own chunk). */
export const messages = {
  'thread.delete.title': 'Delete your comment?',
  'thread.delete.explain':
    'Its text is erased for good. Replies to it stay, under “This comment was removed.”',
  'thread.delete.confirm': 'Delete',
  'thread.delete.cancel': 'Keep it',
} satisfies Record<string, Message>;
