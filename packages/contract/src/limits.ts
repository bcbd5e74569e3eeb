// Limits the server enforces and the clients respect before a round trip (a field's maxLength, a
// page size): one figure each.

/** Page size when a client sends no `first`. */
export const PAGE_SIZE_DEFAULT = 20;

/** Largest `first` honoured; larger requests are capped, not refused. */
export const PAGE_SIZE_MAX = 100;

/** Longest report detail, in characters. */
export const REPORT_DETAILS_MAX_LENGTH = 500;

/** Longest community guidelines, in characters. */
export const GUIDELINES_MAX_LENGTH = 10_000;

/** Longest reaction label, in characters (it sits on a button under every comment). */
export const REACTION_LABEL_MAX_LENGTH = 30;

/**
 * Largest image a reader may upload into a comment, in bytes (2.5 MB: the request itself is capped
 * at 3 MB). The stream shrinks a larger photo in the browser before sending it.
 */
export const COMMENT_IMAGE_MAX_BYTES = 2.5 * 1024 * 1024;

/** Widest a comment image is kept, in pixels: a wider upload is scaled down to it. */
export const COMMENT_IMAGE_MAX_WIDTH = 1600;

/** Most story URLs one `commentCounts` asks for (count.js and `<ParleyCount>` batch up to it). */
export const COMMENT_COUNTS_MAX_URLS = 100;
