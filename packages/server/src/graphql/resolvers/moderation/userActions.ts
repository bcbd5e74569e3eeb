/**
 * Moderators' actions on people: ban, unban, suspend, premod, and (admins only) roles. Each one
 * is a `moderateUser` call, which writes the change and its history entry in one transaction.
 *
 * Who may act on whom: nobody on themself, and only on someone of a lower role — a moderator on
 * commenters and staff, an admin on moderators too. An admin who must go is first demoted by
 * another admin (`setUserRole`), then treated like anyone else; so two admins can never ban each
 * other out of the console.
 */
import { countUsersWithRole, USER_ACTIONS } from '../../../db/store/dashboardQueries';
import { moderateUser } from '../../../db/store/userModeration';
import type { ModerateUserInput } from '../../../db/store/userModeration';
import { inTransaction } from '../../../db/inTransaction';
import { requireUser } from '../../../db/store/users';
import type { User } from '../../../db/store/users';
import type { UserRole } from '../../../db/schema';
import { ParleyError } from '../../../ParleyError';
import type { ParleyContext } from '../../context';
import { hasRole, requireRole } from '../../permissions';
import { revokeApiTokensOf } from '../../../db/store/apiTokens';
import type { Resolvers } from '../resolverTypes.generated';
import { diff } from '../../../db/store/auditLog';
import type { AuditAction } from '../../../db/store/auditLog';
import { audit, userTarget } from '../../audit';
import { actorData, emitWebhookEvent, userData } from '../../webhookEvents';
import { email, recipient } from '../../../email/templates';
import type { AccountDecision } from '../../../email/templates';

const RANK: Record<UserRole, number> = { COMMENTER: 0, STAFF: 1, MODERATOR: 2, ADMIN: 3 };

/** The user `userId` if the viewer (a moderator or above) may act on them; else coded errors. */
async function actionable(
  ctx: ParleyContext,
  userId: string,
): Promise<{ actor: User; target: User }> {
  const actor = requireRole(ctx, 'MODERATOR');
  if (userId === actor.id) {
    throw new ParleyError('FORBIDDEN', 'You cannot do this to your own account.');
  }
  const target = await requireUser(ctx.db, userId);
  if (RANK[target.role] >= RANK[actor.role]) {
    throw new ParleyError(
      'FORBIDDEN',
      `A ${actor.role.toLowerCase()} cannot act on a ${target.role.toLowerCase()}.`,
    );
  }
  return { actor, target };
}

/**
 * Applies `change` to the target with a history entry and an audit entry (`audited`), and emails
 * them the message if any.
 */
async function act(
  ctx: ParleyContext,
  userId: string,
  change: Omit<ModerateUserInput, 'userId' | 'actorId'>,
  audited: AuditAction,
  decision?: AccountDecision,
) {
  const { actor } = await actionable(ctx, userId);
  const message = change.message?.trim() ?? '';
  let changed = false;
  const user = await inTransaction(ctx.db, async (trx) => {
    // Read in the transaction: what the change replaces, not what it was a moment ago.
    const before = await requireUser(trx, userId);
    const after = await moderateUser(trx, {
      ...change,
      userId,
      actorId: actor.id,
      message: message === '' ? null : message,
    });
    // Banning the banned changes nothing: nothing to record.
    const changes = diff(before, after, ['banned', 'suspendedUntil', 'premod']);
    if (changes.length > 0) {
      changed = true;
      await audit(ctx, trx, audited, userTarget(after), [
        ...changes,
        ...(message === '' ? [] : [{ field: 'message', before: null, after: message }]),
      ]);
    }
    return after;
  });
  // Told only of what changed: banning the banned sends nothing.
  if (changed && (audited === 'USER_BAN' || audited === 'USER_SUSPEND')) {
    await emitWebhookEvent(ctx, audited === 'USER_BAN' ? 'user.banned' : 'user.suspended', () => ({
      user: userData(user),
      moderator: actorData(ctx),
      message: message === '' ? null : message,
      ...(audited === 'USER_SUSPEND' ? { until: user.suspendedUntil } : {}),
    }));
  }
  // Only a message a moderator wrote is sent: the change itself shows in the widget (a banned
  // user sees why they cannot post), and an email per click would spam someone being corrected.
  if (decision !== undefined && message !== '') await notify(ctx, user, decision, message);
  return { user };
}

async function notify(ctx: ParleyContext, user: User, decision: AccountDecision, message: string) {
  const organization = await ctx.organization();
  const from = organization?.name ?? 'Parley';
  try {
    await ctx.mailer.send(
      email('moderationDecision', recipient(user.email, user, organization), {
        username: user.username,
        organization: from,
        decision,
        message,
      }),
    );
  } catch (error) {
    // The decision stands even when mail is down: it is already stored, and the user learns of
    // it in the widget. Losing the note is logged, not turned into a failed mutation.
    ctx.logger.warn({ err: error, userId: user.id }, 'Could not email a moderation message');
  }
}

/** Resolvers of ban/unban/suspend/premod (MODERATOR and above) and setUserRole (ADMIN). */
export const userActionResolvers = {
  Mutation: {
    banUser: (_root, { input }, ctx) =>
      act(
        ctx,
        input.userId,
        { action: USER_ACTIONS.BAN, banned: true, message: input.message },
        'USER_BAN',
        { kind: 'BAN' },
      ),

    // Lifts a ban and a suspension alike: the contract has no separate "unsuspend", and the
    // console's one "restore" action should leave the user able to post. Premod stays as set.
    unbanUser: (_root, { input }, ctx) =>
      act(
        ctx,
        input.userId,
        { action: USER_ACTIONS.UNBAN, banned: false, suspendedUntil: null },
        'USER_UNBAN',
      ),

    suspendUser: (_root, { input }, ctx) => {
      if (input.until <= ctx.now()) {
        throw new ParleyError('INVALID_INPUT', 'A suspension must end in the future.', {
          field: 'until',
        });
      }
      return act(
        ctx,
        input.userId,
        {
          action: USER_ACTIONS.SUSPEND,
          suspendedUntil: input.until.toISOString(),
          message: input.message,
        },
        'USER_SUSPEND',
        { kind: 'SUSPEND', until: input.until.toISOString() },
      );
    },

    setUserPremod: (_root, { input }, ctx) =>
      act(
        ctx,
        input.userId,
        {
          action: input.premod ? USER_ACTIONS.PREMOD : USER_ACTIONS.UNPREMOD,
          premod: input.premod,
          message: input.message,
        },
        'USER_PREMOD',
        { kind: input.premod ? 'PREMOD' : 'UNPREMOD' },
      ),

    setUserRole: async (_root, { input }, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      // Count and change in one transaction, so the check reads what the write replaces.
      let changed = false;
      const user = await inTransaction(ctx.db, async (trx) => {
        const target = await requireUser(trx, input.userId);
        if (target.role === input.role) return target;
        // A guest signs in with nothing but a session token: no role beyond commenting.
        if (target.guest) {
          throw new ParleyError('INVALID_INPUT', 'A guest has no account to give a role to.', {
            field: 'userId',
          });
        }
        if (target.id === admin.id && !hasRole({ ...target, role: input.role }, 'ADMIN')) {
          if ((await countUsersWithRole(trx, 'ADMIN')) <= 1) {
            throw new ParleyError('FORBIDDEN', 'You are the last admin: promote another first.');
          }
        }
        changed = true;
        const updated = await moderateUser(trx, {
          userId: target.id,
          actorId: admin.id,
          action: USER_ACTIONS.ROLE,
          role: input.role,
          message: `${target.role} → ${input.role}`,
        });
        await audit(ctx, trx, 'USER_ROLE', userTarget(updated), diff(target, updated, ['role']));
        // An admin no more: their API tokens end for good (a promotion later revives none).
        if (target.role === 'ADMIN') await revokeApiTokensOf(trx, target.id, ctx.now());
        return updated;
      });
      // The history keeps the change itself ('A → B'); a moderator's words only go by email.
      const message = input.message?.trim() ?? '';
      if (changed && message !== '') {
        await notify(ctx, user, { kind: 'ROLE', role: input.role }, message);
      }
      return { user };
    },
  },
} satisfies Resolvers;
