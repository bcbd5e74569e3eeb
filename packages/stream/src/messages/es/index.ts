import type { Message } from '../../i18n/createTranslator';
import type { FirstMessageKey } from '../en';
import { messages as common } from './common';
import { messages as errors } from './errors';
import { messages as thread } from './thread';
import { messages as composer } from './composer';
import { messages as auth } from './auth';

/**
 * The Spanish catalog of the first render: typed against English, so a missing key fails to
 * compile. The lazy areas' Spanish text comes with their chunks (messages/index.ts, withMessages).
 */
export const catalog: Readonly<Record<FirstMessageKey, Message>> = {
  ...common,
  ...errors,
  ...thread,
  ...composer,
  ...auth,
};
