import type { Message } from '../../i18n/createTranslator';
import type { MessageKey } from '../en';
import { messages as common } from './common';
import { messages as errors } from './errors';
import { messages as thread } from './thread';
import { messages as composer } from './composer';
import { messages as auth } from './auth';
import { messages as profile } from './profile';
import { messages as moderation } from './moderation';

/** The Spanish catalog: typed against English, so a missing key fails to compile. */
export const catalog: Readonly<Record<MessageKey, Message>> = {
  ...common,
  ...errors,
  ...thread,
  ...composer,
  ...auth,
  ...profile,
  ...moderation,
};
