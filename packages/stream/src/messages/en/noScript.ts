import type { Message } from '../../i18n/createTranslator';

/**
 * English: what only the server-rendered page shows a reader without JavaScript (ssr.tsx). The
 * frame never shows it, so it is in no bundle of the frame.
 */
export const messages = {
  'noScript.posting': 'Posting a comment needs JavaScript.',
  'noScript.more': 'More comments',
  'noScript.continue': 'Continue this thread',
  'noScript.allComments': 'All comments',
} satisfies Record<string, Message>;
