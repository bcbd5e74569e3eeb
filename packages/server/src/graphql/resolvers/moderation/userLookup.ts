/**
 * What the console's user drawer and "my recent decisions" read: one user by id, that user's
 * account history, and the viewer's own latest decisions on comments. Moderators and above only.
 */
import type { Selectable } from 'kysely';
import type { ModerationDecisionsTable, UserHistoryTable } from '../../../db/schema';
import { listUserHistory } from '../../../db/store/userModeration';
import type { User } from '../../../db/store/users';
import type { ParleyContext } from '../../context';
import { isModerator, requireRole } from '../../permissions';

/** Most decisions `myDecisions` answers: the panel is a recent list, not an audit export. */
const MAX_DECISIONS = 100;

type HistoryRow = Selectable<UserHistoryTable>;
type DecisionRow = Selectable<ModerationDecisionsTable>;

/** Resolvers of `user`, `myDecisions`, `User.history` and their entry types. */
export const userLookupResolvers = {
  Query: {
    user: (_root: unknown, { id }: { id: string }, ctx: ParleyContext) => {
      requireRole(ctx, 'MODERATOR');
      return ctx.loaders.user.load(id).then((user) => user ?? null);
    },

    myDecisions: (_root: unknown, { first }: { first?: number | null }, ctx: ParleyContext) => {
      const moderator = requireRole(ctx, 'MODERATOR');
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
    history: (user: User, _args: unknown, ctx: ParleyContext) =>
      isModerator(ctx.viewer) ? listUserHistory(ctx.db, user.id) : null,
  },

  UserHistoryEntry: {
    actor: (row: HistoryRow, _args: unknown, ctx: ParleyContext) =>
      row.actor_id === null ? null : ctx.loaders.user.load(row.actor_id),
    createdAt: (row: HistoryRow) => row.created_at,
  },

  ModerationDecision: {
    comment: async (row: DecisionRow, _args: unknown, ctx: ParleyContext) =>
      (await ctx.loaders.comment.load(row.comment_id)) ?? null,
    createdAt: (row: DecisionRow) => row.created_at,
  },
};
