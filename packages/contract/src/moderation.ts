// The figures of user moderation that every client offers alike: the roles, in the order they
// are listed, and the suspension lengths. Only the values live here: each client words them
// itself (the console in English, the stream through its message catalogs).

/**
 * Every role (the schema's `Role` enum), lowest first as the server ranks them (`RANK` in
 * packages/server/src/graphql/permissions.ts): the order of the role selects and filters, and the
 * console's check of who may act on whom. packages/transport/src/userActions.test.ts checks it
 * against schema.graphql.
 */
export const ROLES = ['COMMENTER', 'STAFF', 'MODERATOR', 'ADMIN'] as const;

/** A role of a user (the schema's `Role`). */
export type Role = (typeof ROLES)[number];

/** The suspension lengths moderators pick from, in hours, shortest first (1 hour, 1 day, 7 days). */
export const SUSPEND_PRESETS_HOURS = [1, 24, 168] as const;

/** One of {@link SUSPEND_PRESETS_HOURS}; a client's labels are a `Record` over it. */
export type SuspendPresetHours = (typeof SUSPEND_PRESETS_HOURS)[number];

/** The preset a suspension form starts on, in hours. */
export const SUSPEND_DEFAULT_HOURS: SuspendPresetHours = 24;
