/**
 * What the console's user drawer and "my recent decisions" read: one user by id, that user's
 * account history, and the viewer's own latest decisions on comments. Moderators and above only.
 */
import { listUserHistory } from '../../../db/store/userModeration';
import { isModerator, requireRole } from '../../permissions';
import type { RejectionReason, Resolvers } from '../resolverTypes.generated';

/** Most decisions `myDecisions` answers: the panel is a recent list, not an audit export. */
const MAX_DECISIONS = 100;

/** Resolvers of `user`, `myDecisions`, `User.history` and their entry types. */
export const userLookupResolvers = {
  Query: {
    user: (_root, { id }, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return ctx.loaders.user.load(id).then((user) => user ?? null);
    },

    myDecisions: (_root, { first }, ctx) => {
      const moderator = requireRole(ctx, 'MODERATOR');
      // `first` has a default, yet a client's explicit null still arrives as null.
      const limit = Math.min(Math.max(first ?? 20, 1), MAX_DECISIONS);
      return ctx.db
        .selectFrom('moderation_decisions')
        .selectAll()
        .where('moderator_id', '=', moderator.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
  },

  User: {
    // Null, not an error, for others: a reader's query of a user must not fail on this field.
    history: (user, _args, ctx) =>
      isModerator(ctx.staff) ? listUserHistory(ctx.db, user.id) : null,
  },

  UserHistoryEntry: {
    actor: (row, _args, ctx) =>
      row.actor_id === null ? null : ctx.loaders.user.load(row.actor_id),
    createdAt: (row) => row.created_at,
  },

  ModerationDecision: {
    // Stored only from the RejectionReason the mutation took (commentDecisions.ts).
    reason: (row) => row.reason as RejectionReason | null,
    comment: (row, _args, ctx) => ctx.loaders.comment.load(row.comment_id),
    createdAt: (row) => row.created_at,
  },
} satisfies Resolvers;
