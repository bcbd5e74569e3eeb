import type { Message } from '../i18n/createTranslator';
import type { LazyMessageKey, MessagesPart } from '.';
import { messages as accountErrors } from './en/accountErrors';

/**
 * A lazy area's English with the errors only the account forms meet beside it (the profile tab's,
 * the guest form's): they travel with those chunks, not with the first render.
 */
export function withAccountErrors<K extends LazyMessageKey>(
  en: Readonly<Record<K, Message>>,
): MessagesPart<K | keyof typeof accountErrors> {
  return { ...en, ...accountErrors };
}
