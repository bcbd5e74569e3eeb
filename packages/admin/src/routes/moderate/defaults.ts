/**
 * The moderation route's tunables, beside the route that uses them. The end-to-end journeys wait
 * out UNDO_WINDOW_MS, reading it through `@parley/admin/moderate/defaults`.
 */

/** How long a decision can be undone before it is sent, in ms. */
export const UNDO_WINDOW_MS = 5000;

/** Comments per page of a queue. */
export const QUEUE_PAGE_SIZE = 30;

/** Decisions shown in "My recent decisions". */
export const MY_DECISIONS_COUNT = 25;
