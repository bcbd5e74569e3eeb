/** `auditLog` (ADMIN): the audit log, filtered and paged (db/store/auditLog.ts). */
import { listAuditLog } from '../../../db/store/auditLog';
import { requireRole } from '../../permissions';
import type { Resolvers } from '../resolverTypes.generated';

export const auditLogResolvers = {
  Query: {
    auditLog: (_root, args, ctx) => {
      requireRole(ctx, 'ADMIN');
      return listAuditLog(
        ctx.db,
        {
          action: args.action,
          actorId: args.actorId,
          targetId: args.targetId,
          since: args.since?.toISOString(),
          until: args.until?.toISOString(),
        },
        { first: args.first, after: args.after },
      );
    },
  },

  AuditEntry: {
    actor: (entry, _args, ctx) =>
      entry.actorId === null ? null : ctx.loaders.user.load(entry.actorId),
    changes: (entry) =>
      entry.changes.map((change) => ({
        field: change.field,
        before: change.before === null ? null : JSON.stringify(change.before),
        after: change.after === null ? null : JSON.stringify(change.after),
      })),
  },
} satisfies Resolvers;
