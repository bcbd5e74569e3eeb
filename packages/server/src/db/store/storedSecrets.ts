/**
 * The secrets stored in the database, sealed as a whole: at start-up every one is sealed under the
 * current key (values from before sealing existed, or sealed under a previous `PARLEY_SECRET`),
 * and one that no key opens is reported instead of failing later, one sign-in at a time.
 */
import { UnreadableSecretError } from '../../auth/secretBox';
import type { SealPurpose, SecretBox } from '../../auth/secretBox';
import { DEFAULT_SETTINGS } from '../../defaults';
import { inTransaction, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { Settings } from './organization';

/** A stored secret no key opens. */
export interface UnreadableSecret {
  /** What it is, for people: `SSO key <id> of site <siteId>`, `the SMTP password`. */
  what: string;
}

/** What {@link sealStoredSecrets} did. */
export interface SealReport {
  /** How many values were sealed again under the current key. */
  resealed: number;
  /** Values no key opens (left as they are). */
  unreadable: UnreadableSecret[];
}

/** Whether `stored` needs sealing again; undefined when no key opens it. */
function check(box: SecretBox, stored: string, purpose: SealPurpose): boolean | undefined {
  try {
    return box.needsResealing(stored, purpose);
  } catch (error) {
    if (error instanceof UnreadableSecretError) return undefined;
    throw error;
  }
}

/**
 * Seals every stored secret under `box`'s current key, in one transaction. Instances starting
 * together may both reseal a value; either result opens.
 */
export function sealStoredSecrets(db: Db, box: SecretBox): Promise<SealReport> {
  return inTransaction(db, async (trx) => {
    const report: SealReport = { resealed: 0, unreadable: [] };
    const keys = await trx
      .selectFrom('sso_keys')
      .select(['id', 'site_id', 'secret', 'revoked'])
      .execute();
    for (const key of keys) {
      const needs = check(box, key.secret, 'sso_keys.secret');
      if (needs === undefined) {
        // A revoked key is never read again: no reason to stop for it.
        if (key.revoked === 0)
          report.unreadable.push({ what: `SSO key ${key.id} of site ${key.site_id}` });
      } else if (needs) {
        const secret = box.seal(box.open(key.secret, 'sso_keys.secret'), 'sso_keys.secret');
        await trx.updateTable('sso_keys').set({ secret }).where('id', '=', key.id).execute();
        report.resealed += 1;
      }
    }
    const organization = await trx
      .selectFrom('organization')
      .select(['id', 'settings'])
      .executeTakeFirst();
    if (organization !== undefined) {
      const stored = parseJson<Partial<Settings>>(organization.settings, {});
      const password = stored.smtpPassword ?? DEFAULT_SETTINGS.smtpPassword;
      const needs = check(box, password, 'settings.smtpPassword');
      if (needs === undefined) {
        report.unreadable.push({ what: 'the SMTP password (Configure › Email)' });
      } else if (needs) {
        const smtpPassword = box.seal(
          box.open(password, 'settings.smtpPassword'),
          'settings.smtpPassword',
        );
        await trx
          .updateTable('organization')
          .set({ settings: JSON.stringify({ ...stored, smtpPassword }) })
          .where('id', '=', organization.id)
          .execute();
        report.resealed += 1;
      }
    }
    return report;
  });
}

/**
 * Gives up the stored secrets no key opens (their `PARLEY_SECRET` is lost): such SSO keys are
 * revoked (an admin rotates the site's key in the console and gives the host the new secret) and
 * such an SMTP password is cleared (an admin enters it again). Returns what it gave up.
 */
export function forgetUnreadableSecrets(db: Db, box: SecretBox): Promise<UnreadableSecret[]> {
  return inTransaction(db, async (trx) => {
    const forgotten: UnreadableSecret[] = [];
    const keys = await trx
      .selectFrom('sso_keys')
      .select(['id', 'site_id', 'secret'])
      .where('revoked', '=', 0)
      .execute();
    for (const key of keys) {
      if (check(box, key.secret, 'sso_keys.secret') !== undefined) continue;
      // The unopenable value goes too: it is of no use, and revoked keys are never read.
      await trx
        .updateTable('sso_keys')
        .set({ revoked: 1, secret: '' })
        .where('id', '=', key.id)
        .execute();
      forgotten.push({ what: `SSO key ${key.id} of site ${key.site_id} (revoked)` });
    }
    const organization = await trx
      .selectFrom('organization')
      .select(['id', 'settings'])
      .executeTakeFirst();
    if (organization !== undefined) {
      const stored = parseJson<Partial<Settings>>(organization.settings, {});
      const password = stored.smtpPassword ?? '';
      if (check(box, password, 'settings.smtpPassword') === undefined) {
        await trx
          .updateTable('organization')
          .set({ settings: JSON.stringify({ ...stored, smtpPassword: '' }) })
          .where('id', '=', organization.id)
          .execute();
        forgotten.push({ what: 'the SMTP password (cleared)' });
      }
    }
    return forgotten;
  });
}
