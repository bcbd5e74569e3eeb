import { forgetOldGuestAddresses } from '../db/store/guests';
import { foldSpamLessons } from '../db/store/spamModel';
import { forgetOldAkismetChecks } from '../db/store/akismetChecks';
import { unlink } from 'node:fs/promises';
import { deleteAccount, findAccountsDueForDeletion } from '../db/store/accountDeletion';
import type { DeletedAccount } from '../db/store/accountDeletion';
import { daysBefore, newId } from '../db/inTransaction';
import { forgetOldWebhookDeliveries } from '../db/store/webhooks';
import { pruneModerationLinks } from '../db/store/moderationAlerts';
import { WEBHOOK_RETRY } from '../webhooks/createWebhookDispatcher';
import type { Db } from '../db/inTransaction';
import { releaseJobLease, takeJobLease } from '../db/store/jobLeases';
import {
  ACCOUNT_DELETION_SWEEP_MS,
  DEFAULT_SETTINGS,
  JOB_LEASE_TICK_MS,
  UNUSED_IMAGE_GRACE_MS,
} from '../defaults';
import { deleteUnusedImages } from '../db/store/commentImages';
import { pruneAuditLog } from '../db/store/auditLog';
import { pruneSessions } from '../db/store/sessions';
import { refreshPlannerStatistics } from '../db/plannerStatistics';
import { getOrganization } from '../db/store/organization';
import { ACCOUNT_DELETION_GRACE_SECONDS } from '../graphql/resolvers/account/accountEmails';
import { ownAvatarFile } from '../graphql/resolvers/account/profileMutations';
import { smallAvatarOf } from '../uploads/storeAvatar';
import { removeImageFiles, sweepOrphanImages } from '../uploads/commentImages';
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
  /** This process, as the holder of the sweep's lease. @default an id of its own */
  holder?: string;
}

/** The lease's name (db/store/jobLeases.ts). */
export const HOUSEKEEPING_JOB = 'housekeeping';

/** A running job. */
export interface AccountDeletionJob {
  /** Runs one sweep now (also what the timer runs); resolves what it deleted. */
  sweep(): Promise<DeletedAccount[]>;
  /** Stops the timer, waits for a sweep in progress and gives the lease up. */
  stop(): Promise<void>;
}

/**
 * Deletes accounts whose grace period has passed, and prunes the audit log to its retention: one
 * sweep at start, then every `intervalMs`.
 * With several server processes on one database, the timer's sweeps are run by one of them: the
 * holder of the job's lease, asked for every JOB_LEASE_TICK_MS (or each interval, if shorter) and
 * lasting three asks, so another process takes over within that time of the holder stopping (at
 * its next ask if it stopped cleanly).
 * A sweep is safe twice anyway (`sweep()` called by hand): each account is emptied in one
 * transaction that first re-checks it is still due, so a second runner changes nothing.
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
        // Both renderings of the avatar (its 64 px sibling too), and every comment image.
        const avatar = ownAvatarFile(options, userId, result.avatarUrl);
        for (const file of avatar ? [avatar, smallAvatarOf(avatar)] : []) {
          if (file) await unlink(file).catch(() => undefined);
        }
        await removeImageFiles({ dataDir: options.dataDir, logger }, result.imageNames);
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
    // the planners' statistics fresh (they have no job of their own). Each step on its own: the
    // addresses' retention first, and none waits for another that keeps failing.
    // Settings that cannot be read: the defaults this once (a retention of 30 days, not none),
    // and the log says so.
    const settings = await getOrganization(db)
      .then((organization) => organization?.settings ?? DEFAULT_SETTINGS)
      .catch((error: unknown) => {
        logger.error(
          { err: error },
          'Housekeeping could not read the settings; using the defaults',
        );
        failures += 1;
        return DEFAULT_SETTINGS;
      });
    const steps: [string, () => Promise<void>][] = [
      [
        "guests' and Akismet's addresses",
        async () => {
          // Guests' addresses past their time (store/guests.ts), and what Akismet was told of
          // comments with them (store/akismetChecks.ts).
          const forgotten = await forgetOldGuestAddresses(db, at, settings.ipRetentionDays);
          if (forgotten > 0) logger.info({ forgotten }, "Guests' old addresses forgotten");
          await forgetOldAkismetChecks(db, at, settings.ipRetentionDays);
        },
      ],
      [
        'the audit log and sessions',
        async () => {
          const retention = settings.auditRetentionDays;
          const pruned = await pruneAuditLog(db, retention, at);
          if (pruned > 0) {
            logger.info({ pruned, retention }, 'Audit log entries past retention pruned');
          }
          // And the signed-in devices list to the sessions that can still be used.
          await pruneSessions(db, at);
        },
      ],
      [
        'comment images',
        async () => {
          // The comment images nobody used within their week, and image files no row names (a
          // crash between a file and its row): here, in the background, not before the server
          // starts.
          const unusedBefore = new Date(at.getTime() - UNUSED_IMAGE_GRACE_MS).toISOString();
          await removeImageFiles(
            { dataDir: options.dataDir, logger },
            await deleteUnusedImages(db, unusedBefore),
          );
          await sweepOrphanImages({ dataDir: options.dataDir, db, logger });
        },
      ],
      // The spam model to its lessons: those of the accounts erased above, and any fold after a
      // decision that failed (store/spamModel.ts).
      ['the spam model', async () => void (await foldSpamLessons(db))],
      // Moderation emails' links past their time (moderation/moderationAlerts.ts).
      ['moderation links', async () => void (await pruneModerationLinks(db, at))],
      // The webhooks' log to its month (webhooks/createWebhookDispatcher.ts).
      [
        'the webhook log',
        async () =>
          void (await forgetOldWebhookDeliveries(db, daysBefore(at, WEBHOOK_RETRY.keepDays))),
      ],
      // The query planners' statistics to what the tables hold now.
      ['planner statistics', () => refreshPlannerStatistics(db)],
    ];
    for (const [step, run] of steps) {
      try {
        await run();
      } catch (error) {
        logger.error({ err: error, step }, 'Housekeeping failed; retrying next sweep');
        failures += 1;
      }
    }
    options.onRun?.(failures > 0 ? 'failed' : 'ok');
    return done;
  };
  const sweep = () => (running ??= sweepOnce().finally(() => (running = undefined)));
  const holder = options.holder ?? newId();
  const intervalMs = options.intervalMs ?? ACCOUNT_DELETION_SWEEP_MS;
  // The lease is asked for (and renewed) more often than the sweep runs, and lasts three asks:
  // a process that stopped without giving it up is replaced within that, not hours later.
  const tickMs = Math.min(intervalMs, JOB_LEASE_TICK_MS);
  const leased = () =>
    takeJobLease(db, { name: HOUSEKEEPING_JOB, holder, now: now(), ttlMs: tickMs * 3 });
  let stopped = false;
  // When this process last swept (its own monotonic clock: `now` may be a test's still one).
  let sweptAt: number | undefined;
  // The tick in progress (asking for the lease, then maybe sweeping), which `stop()` waits for;
  // a tick due while one is in progress is skipped.
  let ticking: Promise<unknown> | undefined;
  const run = () => {
    if (ticking !== undefined) return;
    ticking = leased()
      .then((mine) => {
        if (!mine || stopped) return undefined;
        if (sweptAt !== undefined && performance.now() - sweptAt < intervalMs) return undefined;
        sweptAt = performance.now();
        return sweep();
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'Account sweep failed');
        options.onRun?.('failed');
      })
      .finally(() => (ticking = undefined));
  };

  run();
  const timer = setInterval(run, tickMs);
  timer.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ticking;
      await running?.catch(() => undefined);
      await releaseJobLease(db, HOUSEKEEPING_JOB, holder).catch(() => undefined);
    },
  };
}
