/**
 * The account area: SSO sign-in, profile changes, avatar upload, password reset and email
 * confirmation, data download, account deletion, the ignore list, and a user's own comments.
 *
 * Who may call what: every mutation here needs a signed-in user (UNAUTHENTICATED otherwise),
 * except those whose credential is something else — `signInWithSso` (the host's token),
 * `requestPasswordReset` (an email address; the answer never tells whether it has an account),
 * `resetPassword`, `confirmEmail`, `downloadCommentsData` and `unsubscribe` (the emailed
 * single-use token).
 *
 * Deleting an account after `ACCOUNT_DELETION_GRACE_SECONDS` is not done here: the periodic job
 * in jobs/startAccountDeletionJob.ts picks users whose `deletionRequestedAt` is older than the
 * grace period (what happens to their comments: db/store/accountDeletion.ts).
 */
import { isoTime } from '../../db/inTransaction';
import { listUserComments } from '../../db/store/accountQueries';
import { ignoreUser, unignoreUser } from '../../db/store/userModeration';
import { findUserById, makeRepliesFeedKey, updateUser } from '../../db/store/users';
import type { User } from '../../db/store/users';
import { ParleyError } from '../../ParleyError';
import type { ParleyContext } from '../context';
import { hasRole, isModerator, requireViewer, requireReader } from '../permissions';
import {
  ACCOUNT_DELETION_GRACE_SECONDS,
  ACCOUNT_PATHS,
  deletionRequestedMessage,
  deliverNotice,
  downloadMessage,
  tokenLink,
} from './account/accountEmails';
import { profileMutations } from './account/profileMutations';
import { tokenMutations } from './account/tokenMutations';
import type { MutationResolvers, Resolvers } from './resolverTypes.generated';

/** When an account whose deletion was requested at `requestedAt` is deleted. */
export function deletionDate(requestedAt: string): Date {
  return new Date(new Date(requestedAt).getTime() + ACCOUNT_DELETION_GRACE_SECONDS * 1000);
}

/** The user named by `userId`, other than the viewer; INVALID_INPUT / NOT_FOUND otherwise. */
async function otherUser(ctx: ParleyContext, viewer: User, userId: string): Promise<User> {
  if (userId === viewer.id) {
    throw new ParleyError('INVALID_INPUT', 'That is your own account.', { field: 'userId' });
  }
  const user = await findUserById(ctx.db, userId);
  if (user === undefined) throw new ParleyError('NOT_FOUND', 'There is no such user.');
  return user;
}

/** Data download, account deletion and the ignore list of the signed-in user. */
const lifecycleMutations = {
  requestCommentsDownload: async (_root, _args, ctx) => {
    const viewer = requireViewer(ctx);
    const link = await tokenLink(ctx, viewer, 'DOWNLOAD', ACCOUNT_PATHS.download);
    // Awaited and not swallowed: the email is the whole result, so a failure must show.
    await ctx.mailer.send(downloadMessage(viewer, link, await ctx.organization()));
    return { ok: true };
  },

  requestAccountDeletion: async (_root, _args, ctx) => {
    const viewer = requireViewer(ctx);
    // Asking twice keeps the first date: repeating the request must not postpone the deletion.
    const requestedAt = viewer.deletionRequestedAt ?? isoTime(ctx.now());
    const user =
      viewer.deletionRequestedAt === null
        ? await updateUser(ctx.db, viewer.id, { deletionRequestedAt: requestedAt })
        : viewer;
    await deliverNotice(
      ctx,
      deletionRequestedMessage(
        user,
        deletionDate(requestedAt),
        ctx.publicUrl,
        await ctx.organization(),
      ),
    );
    return { user };
  },

  cancelAccountDeletion: async (_root, _args, ctx) => {
    const viewer = requireViewer(ctx);
    return { user: await updateUser(ctx.db, viewer.id, { deletionRequestedAt: null }) };
  },

  ignoreUser: async (_root, { input }, ctx) => {
    const viewer = requireViewer(ctx);
    const user = await otherUser(ctx, viewer, input.userId);
    // Staff, moderators and admins speak for the site (answers, moderation notes); hiding them
    // would hide the rules being applied. Same rule as Coral Talk's.
    if (hasRole(user, 'STAFF')) {
      throw new ParleyError('FORBIDDEN', 'Staff members cannot be ignored.', { field: 'userId' });
    }
    await ignoreUser(ctx.db, viewer.id, user.id);
    return { user };
  },

  makeRepliesFeed: async (_root, _args, ctx) => {
    const viewer = requireViewer(ctx);
    await ctx.rateLimiter.consume('repliesFeed', `user:${viewer.id}`);
    const key = await makeRepliesFeedKey(ctx.db, viewer.id);
    return { user: { ...viewer, repliesFeedKey: key } };
  },

  unignoreUser: async (_root, { input }, ctx) => {
    const viewer = requireViewer(ctx);
    // No role check: someone ignored before becoming staff must still be un-ignorable.
    const user = await otherUser(ctx, viewer, input.userId);
    await unignoreUser(ctx.db, viewer.id, user.id);
    return { user };
  },
} satisfies MutationResolvers;

/** Resolvers of the account area (merged into the schema by `resolvers/index.ts`). */
export const accountResolvers = {
  Mutation: {
    ...tokenMutations,
    ...profileMutations,
    ...lifecycleMutations,
  },

  User: {
    /**
     * The user's comments on every story, newest first. Readers see what a thread would show
     * them; the author and moderators also see held and rejected ones (the author to know what
     * happened to them, moderators to judge the person). Moderators also see deleted ones, as
     * tombstones with the time they went.
     */
    comments: async (user, args, ctx) => {
      await requireReader(ctx);
      return listUserComments(
        ctx.db,
        {
          authorId: user.id,
          includeHidden: ctx.viewer?.id === user.id || isModerator(ctx.staff),
          includeDeleted: isModerator(ctx.staff),
          status: args.status,
        },
        { first: args.first, after: args.after },
      );
    },
  },
} satisfies Resolvers;
