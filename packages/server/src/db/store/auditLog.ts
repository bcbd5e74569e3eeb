/**
 * The audit log: every staff action that changes policy or people — settings, sites and their
 * permitted origins, SSO keys, stories' settings, roles, bans, suspensions, premoderation,
 * invitations, two-factor sign-in — and what the `parley` command and the system did to accounts
 * (password and two-factor resets, erased accounts). Who (and their name then), when, from which
 * address, what, and each changed field before → after. Secrets are never written: a field that
 * holds one reads `[redacted]` on both sides (changed or not is still told).
 *
 * An entry is written in the transaction of the change it records: no change without its entry,
 * no entry for a change that did not happen. Entries older than the organization's
 * `auditRetentionDays` are pruned by the periodic sweep (jobs/startAccountDeletionJob.ts).
 */
import type { Selectable } from 'kysely';
import { daysBefore, isoTime, newId, parseJson } from '../inTransaction';
import type { AuditLogTable } from '../schema';
import type { Db } from '../inTransaction';
import { paginate } from './paginate';
import type { Connection, PageArgs } from './paginate';

/** What an entry records; the console filters by these. */
export const AUDIT_ACTIONS = [
  'SETTINGS_UPDATE',
  'SITE_CREATE',
  'SITE_UPDATE',
  'SSO_KEY_ROTATE',
  'SSO_KEY_REVOKE',
  'API_TOKEN_CREATE',
  'API_TOKEN_REVOKE',
  'WEBHOOK_CREATE',
  'WEBHOOK_UPDATE',
  'WEBHOOK_DELETE',
  'WEBHOOK_SECRET_ROLL',
  'STORY_UPDATE',
  'USER_ROLE',
  'USER_BAN',
  'USER_UNBAN',
  'USER_SUSPEND',
  'USER_PREMOD',
  'USER_INVITE',
  'USER_ERASE',
  'PASSWORD_RESET',
  'TWO_FACTOR_ENABLE',
  'TWO_FACTOR_DISABLE',
  'TWO_FACTOR_RESET',
  'RECOVERY_CODES_REGENERATE',
  'SECRETS_FORGET',
  'SIGN_IN_PROVIDER_CREATE',
  'SIGN_IN_PROVIDER_UPDATE',
  'SIGN_IN_PROVIDER_DELETE',
  'IMPORT_START',
  'EXPORT_DOWNLOAD',
  'IP_BAN',
  'IP_BAN_LIFT',
] as const;

/** An action the audit log records. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a secret reads as in the log, before and after. */
export const REDACTED = '[redacted]';

/** One field's change: what it was, what it became (JSON values). */
export type AuditChange = { field: string; before: unknown; after: unknown };

/** What a change is done to. */
export interface AuditTarget {
  /** `settings`, `site`, `sso_key`, `story`, `user`. */
  type: string;
  id: string | null;
  /** How people know it: a username, a site's name, a story's URL. */
  label: string;
}

/** An entry to write. */
export interface AuditEntryInput {
  /** Who did it; null for the `parley` command or the system (see `actorName`). */
  actor: { id: string; username: string } | null;
  /** Without an actor: `parley` (the command, the default) or `system` (a periodic job). */
  actorName?: 'parley' | 'system';
  action: AuditAction;
  target: AuditTarget;
  /** The fields that changed (unchanged ones are dropped). */
  changes?: readonly AuditChange[];
  /** The caller's address, when over HTTP. */
  ip?: string | undefined;
}

/** An entry as it is read back. */
export interface AuditEntry {
  id: string;
  createdAt: string;
  actorId: string | null;
  /** The actor's username when it was written; `parley` for the command, `system` for jobs. */
  actorName: string;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  targetLabel: string;
  changes: AuditChange[];
  ip: string | null;
}

/** Whether two JSON values are the same. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The changes between `before` and `after` over `fields`: only those that differ; the `secrets`
 * among them as {@link REDACTED} (null for none), so a log reader learns that one changed, never
 * what it is.
 */
export function diff<T extends object>(
  before: T | undefined,
  after: T,
  fields: readonly (keyof T & string)[],
  secrets: readonly (keyof T & string)[] = [],
): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const field of fields) {
    const was = before?.[field];
    const is = after[field];
    if (same(was, is)) continue;
    if (secrets.includes(field)) {
      changes.push({
        field,
        before: was === undefined || was === '' || was === null ? null : REDACTED,
        after: is === '' || is === null ? null : REDACTED,
      });
    } else {
      changes.push({ field, before: was ?? null, after: is ?? null });
    }
  }
  return changes;
}

/** Writes an entry; call it inside the transaction of the change it records. */
export async function recordAudit(db: Db, entry: AuditEntryInput, now: Date): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      created_at: isoTime(now),
      actor_id: entry.actor?.id ?? null,
      actor_name: entry.actor?.username ?? entry.actorName ?? 'parley',
      action: entry.action,
      target_type: entry.target.type,
      target_id: entry.target.id,
      target_label: entry.target.label,
      changes: JSON.stringify(entry.changes ?? []),
      ip: entry.ip ?? null,
    })
    .execute();
}

/** What {@link listAuditLog} narrows to. */
export interface AuditFilter {
  action?: AuditAction | null;
  actorId?: string | null;
  /** A user the entries are about (target type `user`). */
  targetId?: string | null;
  /** ISO times, inclusive start, exclusive end. */
  since?: string | null;
  until?: string | null;
}

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    actorId: row.actor_id,
    actorName: row.actor_name,
    action: row.action as AuditAction,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    changes: parseJson<AuditChange[]>(row.changes, []),
    ip: row.ip,
  };
}

/** The entries matching `filter`, newest first, a page at a time. */
export function listAuditLog(
  db: Db,
  filter: AuditFilter,
  page: PageArgs,
): Promise<Connection<AuditEntry>> {
  let q = db.selectFrom('audit_log').selectAll();
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.actorId) q = q.where('actor_id', '=', filter.actorId);
  if (filter.targetId) q = q.where('target_id', '=', filter.targetId);
  if (filter.since) q = q.where('created_at', '>=', filter.since);
  if (filter.until) q = q.where('created_at', '<', filter.until);
  return paginate(
    q,
    [
      { column: 'created_at', field: 'created_at', direction: 'desc' },
      { column: 'id', field: 'id', direction: 'desc' },
    ],
    page,
    toEntry,
  );
}

/** Deletes the entries older than `retentionDays` before `now`; resolves how many went. */
export async function pruneAuditLog(db: Db, retentionDays: number, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('audit_log')
    .where('created_at', '<', daysBefore(now, retentionDays))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
