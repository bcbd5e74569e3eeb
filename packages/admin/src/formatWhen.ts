/**
 * A moment as the console's tables show it, in the admin's locale and time zone ("Nov 27, 2026,
 * 3:58 PM"); with `seconds` to the second (a webhook's attempts, 30 s apart at first).
 */
export function formatWhen(iso: string, { seconds = false } = {}): string {
  return new Date(iso).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: seconds ? 'medium' : 'short',
  });
}
