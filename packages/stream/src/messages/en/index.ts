import type { Message } from '../../i18n/createTranslator';
import { messages as common } from './common';
import { messages as errors } from './errors';
import { messages as thread } from './thread';
import { messages as composer } from './composer';
import { messages as auth } from './auth';

// English: the default catalog, bundled with the stream. Other locales are chunks loaded on demand.
// One file per area of the widget, so each area's text sits apart from the others'. The areas that
// are chunks of their own (profile, moderation, report, edit) are not in it: each chunk brings its
// text (messages/index.ts, withMessages).

const catalog = {
  ...common,
  ...errors,
  ...thread,
  ...composer,
  ...auth,
};

/** Every message key of the stream's first render (the popup's are in auth/popupCatalog.ts). */
export type FirstMessageKey = keyof typeof catalog;

/** The English catalog of the first render. */
export const en: Readonly<Record<FirstMessageKey, Message>> = catalog;
