/**
 * A moment as the console's tables show it, in the console's language and the admin's time zone ("Nov 27, 2026,
 * 3:58 PM"); with `seconds` to the second (a webhook's attempts, 30 s apart at first).
 */
export function formatWhen(iso: string, { seconds = false } = {}): string {
  return new Date(iso).toLocaleString(uiLocale(), {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
  });
}

/**
 * The console's language for `Intl` (dates, numbers): the document's `lang`, which its language
 * provider sets; undefined (the browser's) before that.
 */
export function uiLocale(): string | undefined {
  return document.documentElement.lang || undefined;
}
