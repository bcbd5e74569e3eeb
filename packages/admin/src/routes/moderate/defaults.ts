/**
 * The moderation route's tunables. (The console has no package-wide defaults file yet; these are
 * used only here, so they live beside the route.)
 */

/** How long a decision can be undone before it is sent, in ms. */
export const UNDO_WINDOW_MS = 5000;

/** Comments per page of a queue. */
export const QUEUE_PAGE_SIZE = 30;

/** Decisions shown in "My recent decisions". */
export const MY_DECISIONS_COUNT = 25;

/** Suspension lengths the drawer offers, in hours. */
export const SUSPEND_PRESETS_HOURS: readonly { label: string; hours: number }[] = [
  { label: '1 hour', hours: 1 },
  { label: '24 hours', hours: 24 },
  { label: '7 days', hours: 24 * 7 },
];
