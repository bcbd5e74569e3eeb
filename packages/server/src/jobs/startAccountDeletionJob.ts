import { unlink } from 'node:fs/promises';
import { deleteAccount, findAccountsDueForDeletion } from '../db/store/accountDeletion';
import type { DeletedAccount } from '../db/store/accountDeletion';
import type { Db } from '../db/inTransaction';
import { ACCOUNT_DELETION_SWEEP_MS, DEFAULT_SETTINGS } from '../defaults';
import { pruneAuditLog } from '../db/store/auditLog';
import { pruneSessions } from '../db/store/sessions';
import { refreshPlannerStatistics } from '../db/plannerStatistics';
import { getOrganization } from '../db/store/organization';
import { ACCOUNT_DELETION_GRACE_SECONDS } from '../graphql/resolvers/account/accountEmails';
import { ownAvatarFile } from '../graphql/resolvers/account/profileMutations';
import type { Logger } from '../runtime/createLogger';

/** Options of {@link startAccountDeletionJob}. */
export interface AccountDeletionJobOptions {
  db: Db;
  logger: Logger;
  /** The data folder and public URL: a deleted account's avatar file is removed. */
  dataDir: string;
  /** See `dataDir`. */
  publicUrl: string;
  /** Clock. @default () => new Date() */
  now?: () => Date;
  /** Time between sweeps. @default ACCOUNT_DELETION_SWEEP_MS */
  intervalMs?: number;
  /** Told how each sweep went: `failed` when it, or the deletion of an account, failed. */
  onRun?(result: 'ok' | 'failed'): void;
  /** Grace period after a request. @default ACCOUNT_DELETION_GRACE_SECONDS */
  graceSeconds?: number;
}

/** A running job. */
export interface AccountDeletionJob {
  /** Runs one sweep now (also what the timer runs); resolves what it deleted. */
  sweep(): Promise<DeletedAccount[]>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Deletes accounts whose grace period has passed, and prunes the audit log to its retention: one
 * sweep at start, then every `intervalMs`.
 * Several server processes may run it at once: each account is emptied in one transaction that
 * first re-checks it is still due, so a second runner (or a cancel in between) changes nothing.
 * A failing account is logged and retried on the next sweep; it does not stop the others.
 */
export function startAccountDeletionJob(options: AccountDeletionJobOptions): AccountDeletionJob {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const graceMs = (options.graceSeconds ?? ACCOUNT_DELETION_GRACE_SECONDS) * 1000;
  let running: Promise<DeletedAccount[]> | undefined;

  const sweepOnce = async (): Promise<DeletedAccount[]> => {
    const at = now();
    const cutoff = new Date(at.getTime() - graceMs);
    const due = await findAccountsDueForDeletion(db, cutoff);
    const done: DeletedAccount[] = [];
    let failures = 0;
    for (const userId of due) {
      try {
        const result = await deleteAccount(db, userId, at, cutoff);
        if (!result) continue;
        done.push(result);
        const avatar = ownAvatarFile(options, userId, result.avatarUrl);
        if (avatar) await unlink(avatar).catch(() => undefined);
        logger.info(
          { userId, comments: result.comments, reactions: result.reactions },
          'Account deleted after its grace period',
        );
      } catch (error) {
        logger.error({ err: error, userId }, 'Account deletion failed; retrying next sweep');
        failures += 1;
      }
    }
    // The same sweep keeps the audit log to its retention, the sessions list to live sessions and
    // the planners' statistics fresh (they have no job of their own).
    try {
      const retention =
        (await getOrganization(db))?.settings.auditRetentionDays ??
        DEFAULT_SETTINGS.auditRetentionDays;
      const pruned = await pruneAuditLog(db, retention, at);
      if (pruned > 0) logger.info({ pruned, retention }, 'Audit log entries past retention pruned');
      // And the signed-in devices list to the sessions that can still be used.
      await pruneSessions(db, at);
      // And the query planners' statistics to what the tables hold now.
      await refreshPlannerStatistics(db);
    } catch (error) {
      logger.error({ err: error }, 'Housekeeping failed; retrying next sweep');
      failures += 1;
    }
    options.onRun?.(failures > 0 ? 'failed' : 'ok');
    return done;
  };
  const sweep = () => (running ??= sweepOnce().finally(() => (running = undefined)));
  const run = () =>
    void sweep().catch((error: unknown) => {
      logger.error({ err: error }, 'Account sweep failed');
      options.onRun?.('failed');
    });

  run();
  const timer = setInterval(run, options.intervalMs ?? ACCOUNT_DELETION_SWEEP_MS);
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
