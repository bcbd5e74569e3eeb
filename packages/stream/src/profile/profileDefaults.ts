// Figures of the profile tab. They belong in the stream's one defaults.ts (STYLE.md guideline 6),
// which is outside this change; the two server figures should come from a shared module once the
// server exports one (today they live in the server's own defaults and account emails).

/** Comments per page of "My comments". */
export const MY_COMMENTS_PAGE_SIZE = 10;

/**
 * Days between a deletion request and the deletion. Mirrors the server's
 * `ACCOUNT_DELETION_GRACE_SECONDS` (604 800 s), which clients cannot import yet.
 */
export const ACCOUNT_DELETION_GRACE_DAYS = 7;

/**
 * Image types the server accepts as avatars (its `AVATAR_TYPES`): the file picker offers only
 * these; the server still sniffs the bytes and answers UPLOAD_TYPE_NOT_ALLOWED otherwise.
 */
export const AVATAR_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';
