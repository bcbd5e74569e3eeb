/**
 * The secrets stored in the database, as a whole: which ones no key opens (a changed
 * `PARLEY_SECRET` without its previous value), which ones wait to be sealed under the current key
 * (stored in clear by a version before sealing, or sealed under `PARLEY_SECRET_PREVIOUS`), and
 * sealing those.
 *
 * Sealing rewrites values that another instance may still be reading with the old code or the old
 * secret, so it happens only where no such instance can be: at the start of a server on SQLite (one
 * process by design), or through `parley seal-secrets` once every instance runs the new version
 * with the new secret. Until then a PostgreSQL server keeps them as they are, and says so.
 */
import { PostgresAdapter } from 'kysely';
import { UnreadableSecretError, ssoKeyPurpose } from '../../auth/secretBox';
import { totpPurpose } from '../../auth/twoFactor';
import { disableTwoFactor } from './twoFactor';
import { providerSecretPurpose } from './signInProviders';
import { refreshWebhookEvents, webhookSecretPurpose } from './webhooks';
import { recordAudit } from './auditLog';
import type { SealPurpose, SecretBox } from '../../auth/secretBox';
import { DEFAULT_SETTINGS } from '../../defaults';
import { inTransaction, isoTime, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { Settings } from './organization';

/** A stored secret, for people: `SSO key <id> of site <siteId>`, `the SMTP password`. */
export interface StoredSecret {
  what: string;
}

/** What {@link surveyStoredSecrets} and {@link sealStoredSecrets} found. */
export interface SecretsSurvey {
  /** Values in use that no key opens. */
  unreadable: StoredSecret[];
  /** Values in clear or under a previous key: to be sealed again (or, by sealing, sealed). */
  pending: number;
  /** Values the keys open (in clear ones included). */
  readable: number;
}

/** Options of the survey and the sealing. */
export interface SurveyOptions {
  /** `SMTP_URL` is set: the stored password is not used, so an unreadable one stops nothing. */
  smtpFromEnvironment?: boolean;
  /** Now, for which keys are past their overlap. @default the clock */
  now?: string;
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

/** Records in the audit log what forgetting gave up (nothing is recorded for a survey). */
async function auditForgetting(db: Db, action: Action, survey: SecretsSurvey): Promise<void> {
  if (action !== 'forget' || survey.unreadable.length === 0) return;
  await recordAudit(
    db,
    {
      actor: null,
      action: 'SECRETS_FORGET',
      target: { type: 'settings', id: null, label: 'stored secrets' },
      changes: [{ field: 'forgotten', before: null, after: survey.unreadable.map((u) => u.what) }],
    },
    new Date(),
  );
}

/** What {@link visit} does with what it finds. */
type Action = 'survey' | 'seal' | 'forget';

/**
 * Looks at every stored secret in one transaction — and, by `action`, seals what is pending under
 * the current key, or gives up what no key opens. The organization row is locked first
 * (PostgreSQL), so two sealers, or a sealer and a settings save, take turns; keys are taken in id
 * order. A key that is revoked or past its overlap is never read again: not one to stop for.
 */
async function visit(
  db: Db,
  box: SecretBox,
  action: Action,
  options: SurveyOptions = {},
): Promise<SecretsSurvey> {
  const now = options.now ?? isoTime();
  return inTransaction(db, async (trx) => {
    const survey: SecretsSurvey = { unreadable: [], pending: 0, readable: 0 };
    let query = trx.selectFrom('organization').select(['id', 'settings']);
    // SQLite has no row locks (nor needs them: a write transaction there is the only one).
    if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
    const organization = await query.executeTakeFirst();
    const keys = await trx
      .selectFrom('sso_keys')
      .select(['id', 'site_id', 'secret', 'revoked', 'expires_at'])
      .orderBy('id')
      .execute();
    for (const key of keys) {
      if (key.secret === '') continue; // given up before
      const purpose = ssoKeyPurpose(key.id);
      const needs = check(box, key.secret, purpose);
      if (needs === undefined) {
        const inUse = key.revoked === 0 && (key.expires_at === null || key.expires_at > now);
        if (!inUse) continue;
        const what = `SSO key ${key.id} of site ${key.site_id}`;
        survey.unreadable.push({ what: action === 'forget' ? `${what} (revoked)` : what });
        if (action === 'forget') {
          // The unopenable value goes too: it is of no use, and revoked keys are never read.
          await trx
            .updateTable('sso_keys')
            .set({ revoked: 1, secret: '' })
            .where('id', '=', key.id)
            .execute();
        }
        continue;
      }
      survey.readable++;
      if (!needs) continue;
      survey.pending++;
      if (action === 'seal') {
        const secret = box.seal(box.open(key.secret, purpose), purpose);
        await trx.updateTable('sso_keys').set({ secret }).where('id', '=', key.id).execute();
      }
    }
    const enrolled = await trx
      .selectFrom('users')
      .select(['id', 'totp_secret', 'totp_enabled_at'])
      .where('totp_secret', 'is not', null)
      .orderBy('id')
      .execute();
    for (const user of enrolled) {
      const purpose = totpPurpose(user.id);
      const needs = check(box, user.totp_secret ?? '', purpose);
      if (needs === undefined) {
        // A pending enrolment is nothing to stop for: the user starts it again.
        if (user.totp_enabled_at === null && action !== 'forget') continue;
        const what = `the two-factor secret of user ${user.id}`;
        survey.unreadable.push({ what: action === 'forget' ? `${what} (turned off)` : what });
        if (action === 'forget') {
          // Their sign-ins ask for no code until they enrol again (required of staff: at once).
          await disableTwoFactor(trx, user.id);
        }
        continue;
      }
      survey.readable++;
      if (!needs) continue;
      survey.pending++;
      if (action === 'seal') {
        const secret = box.seal(box.open(user.totp_secret ?? '', purpose), purpose);
        await trx
          .updateTable('users')
          .set({ totp_secret: secret })
          .where('id', '=', user.id)
          .execute();
      }
    }
    const providers = await trx
      .selectFrom('sign_in_providers')
      .select(['id', 'name', 'client_secret'])
      .where('client_secret', '!=', '')
      .orderBy('id')
      .execute();
    for (const provider of providers) {
      const purpose = providerSecretPurpose(provider.id);
      const needs = check(box, provider.client_secret, purpose);
      if (needs === undefined) {
        const what = `the client secret of sign-in provider ${provider.name} (${provider.id})`;
        survey.unreadable.push({ what: action === 'forget' ? `${what} (cleared)` : what });
        // Cleared, the provider leaves every popup until an admin enters its secret again.
        if (action === 'forget') {
          await trx
            .updateTable('sign_in_providers')
            .set({ client_secret: '' })
            .where('id', '=', provider.id)
            .execute();
        }
        continue;
      }
      survey.readable++;
      if (!needs) continue;
      survey.pending++;
      if (action === 'seal') {
        const secret = box.seal(box.open(provider.client_secret, purpose), purpose);
        await trx
          .updateTable('sign_in_providers')
          .set({ client_secret: secret })
          .where('id', '=', provider.id)
          .execute();
      }
    }
    const webhooks = await trx
      .selectFrom('webhooks')
      .select(['id', 'url', 'secret', 'enabled'])
      .where('secret', '!=', '')
      .orderBy('id')
      .execute();
    for (const webhook of webhooks) {
      const purpose = webhookSecretPurpose(webhook.id);
      const needs = check(box, webhook.secret, purpose);
      if (needs === undefined) {
        // A disabled endpoint is sent nothing: not one to stop for (it cannot be enabled without
        // a new secret once given up).
        if (webhook.enabled === 0 && action !== 'forget') continue;
        const what = `the signing secret of webhook ${new URL(webhook.url).origin} (${webhook.id})`;
        survey.unreadable.push({ what: action === 'forget' ? `${what} (disabled)` : what });
        // Cleared and disabled: an admin rolls a new secret, gives it to the receiver, enables it.
        if (action === 'forget') {
          await trx
            .updateTable('webhooks')
            .set({ secret: '', enabled: 0 })
            .where('id', '=', webhook.id)
            .execute();
          await refreshWebhookEvents(trx);
        }
        continue;
      }
      survey.readable++;
      if (!needs) continue;
      survey.pending++;
      if (action === 'seal') {
        const secret = box.seal(box.open(webhook.secret, purpose), purpose);
        await trx.updateTable('webhooks').set({ secret }).where('id', '=', webhook.id).execute();
      }
    }
    if (organization === undefined) {
      await auditForgetting(trx, action, survey);
      return survey;
    }
    const stored = parseJson<Partial<Settings>>(organization.settings, {});
    const password = stored.smtpPassword ?? DEFAULT_SETTINGS.smtpPassword;
    const purpose = 'settings.smtpPassword';
    const needs = check(box, password, purpose);
    let smtpPassword: string | undefined;
    if (needs === undefined) {
      // With SMTP_URL set the stored password is not used: an unreadable one stops nothing.
      if (action === 'forget' || options.smtpFromEnvironment !== true) {
        survey.unreadable.push({
          what:
            action === 'forget'
              ? 'the SMTP password (cleared)'
              : 'the SMTP password (Configure › Email)',
        });
      }
      if (action === 'forget') smtpPassword = '';
    } else if (password !== '') {
      survey.readable++;
      if (needs) {
        survey.pending++;
        if (action === 'seal') smtpPassword = box.seal(box.open(password, purpose), purpose);
      }
    }
    if (smtpPassword !== undefined) {
      await trx
        .updateTable('organization')
        .set({ settings: JSON.stringify({ ...stored, smtpPassword }) })
        .where('id', '=', organization.id)
        .execute();
    }
    await auditForgetting(trx, action, survey);
    return survey;
  });
}

/** What the stored secrets are, changing nothing. */
export function surveyStoredSecrets(
  db: Db,
  box: SecretBox,
  options: SurveyOptions = {},
): Promise<SecretsSurvey> {
  return visit(db, box, 'survey', options);
}

/**
 * Seals every pending value under `box`'s current key; what no key opens is left as it is (and
 * reported). Resolves the survey from before the sealing (`pending` is what was sealed).
 */
export function sealStoredSecrets(
  db: Db,
  box: SecretBox,
  options: SurveyOptions = {},
): Promise<SecretsSurvey> {
  return visit(db, box, 'seal', options);
}

/**
 * Gives up the stored secrets no key opens (their `PARLEY_SECRET` is lost): such SSO keys are
 * revoked, their secret dropped (an admin rotates the site's key in the console and gives the host
 * the new secret), such an SMTP password is cleared (an admin enters it again), and such a
 * two-factor secret is turned off with its recovery codes (its owner enrols again). Resolves what
 * it gave up.
 */
export async function forgetUnreadableSecrets(db: Db, box: SecretBox): Promise<StoredSecret[]> {
  return (await visit(db, box, 'forget')).unreadable;
}
