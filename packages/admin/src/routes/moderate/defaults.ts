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
