/**
 * Recording a staff action from a resolver (db/store/auditLog.ts): the signed-in actor, their
 * address, the server's clock. Called with the transaction of the change, so both commit or
 * neither does.
 */
import { recordAudit } from '../db/store/auditLog';
import type { AuditAction, AuditChange, AuditTarget } from '../db/store/auditLog';
import type { Db } from '../db/inTransaction';
import type { User } from '../db/store/users';
import type { ParleyContext } from './context';

/** Records `action` on `target` by the viewer, in `db` (the change's transaction). */
export function audit(
  ctx: ParleyContext,
  db: Db,
  action: AuditAction,
  target: AuditTarget,
  changes: readonly AuditChange[] = [],
): Promise<void> {
  // What a script did with a token is told apart from what its admin did by hand.
  const actor = ctx.viewer && {
    id: ctx.viewer.id,
    username: ctx.apiToken
      ? `${ctx.viewer.username} (API token “${ctx.apiToken.name}”)`
      : ctx.viewer.username,
  };
  return recordAudit(db, { actor, action, target, changes, ip: ctx.ip }, ctx.now());
}

/** A user as an audit target. */
export function userTarget(user: Pick<User, 'id' | 'username'>): AuditTarget {
  return { type: 'user', id: user.id, label: user.username };
}
