import type { Message } from '../../i18n/createTranslator';

/** English: the report form (its own chunk, with ReportDialog). */
export const messages = {
  'thread.report.title': 'Report this comment',
  'thread.report.OFFENSIVE': 'Offensive',
  'thread.report.ABUSIVE': 'Abusive',
  'thread.report.SPAM': 'Spam',
  'thread.report.OTHER': 'Other',
  'thread.report.details': 'Details (optional)',
  'thread.report.send': 'Send report',
  'thread.report.cancel': 'Cancel',
  'thread.report.close': 'Close',
  'thread.report.sent': 'Thank you. A moderator will look at this comment.',
} satisfies Record<string, Message>;
