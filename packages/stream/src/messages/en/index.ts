import type { Message } from '../../i18n/createTranslator';
import { messages as common } from './common';
import { messages as errors } from './errors';
import { messages as thread } from './thread';
import { messages as composer } from './composer';
import { messages as auth } from './auth';
import { messages as profile } from './profile';
import { messages as moderation } from './moderation';

// English: the default catalog, bundled with the stream. Other locales are chunks loaded on demand.
// One file per area of the widget, so each area's text sits apart from the others'.

const catalog = {
  ...common,
  ...errors,
  ...thread,
  ...composer,
  ...auth,
  ...profile,
  ...moderation,
};

/** Every message key of the stream and the popup. */
export type MessageKey = keyof typeof catalog;

/** The English catalog. */
export const en: Readonly<Record<MessageKey, Message>> = catalog;
