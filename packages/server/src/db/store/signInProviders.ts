/**
 * Sign-in providers (GitHub, Google, OpenID Connect issuers) as an admin configured them, and the
 * provider accounts people connected to their Parley account. The flows under way are in
 * signInFlows.ts; the providers' protocols in auth/providers/.
 */
import { PostgresAdapter } from 'kysely';
import type { Selectable } from 'kysely';
import type { SecretBox, SealPurpose } from '../../auth/secretBox';
import { ParleyError } from '../../ParleyError';
import { inTransaction, isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import { isUniqueViolation } from '../isUniqueViolation';
import type { SignInProviderKind, SignInProvidersTable, UserIdentitiesTable } from '../schema';
import { findSiteByOrigin } from './sites';

/** A configured provider, its secret not included (see {@link providerSecret}). */
export interface SignInProvider {
  id: string;
  kind: SignInProviderKind;
  name: string;
  /** OIDC: the issuer URL; '' for GitHub and Google. */
  issuerUrl: string;
  clientId: string;
  /** Whether a client secret is stored (it is never given out). */
  clientSecretSet: boolean;
  /** The sites it is switched on for. */
  siteIds: string[];
  createdAt: string;
}

/** The purpose a provider's client secret is sealed under. */
export function providerSecretPurpose(id: string): SealPurpose {
  return `sign_in_providers.client_secret:${id}`;
}

function toProvider(row: Selectable<SignInProvidersTable>, siteIds: string[]): SignInProvider {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    issuerUrl: row.issuer_url,
    clientId: row.client_id,
    clientSecretSet: row.client_secret !== '',
    siteIds,
    createdAt: row.created_at,
  };
}

async function sitesOf(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  const bySite = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return bySite;
  const rows = await db
    .selectFrom('sign_in_provider_sites')
    .select(['provider_id', 'site_id'])
    .where('provider_id', 'in', ids)
    .orderBy('site_id')
    .execute();
  for (const row of rows) bySite.get(row.provider_id)?.push(row.site_id);
  return bySite;
}

/** Every configured provider, oldest first. */
export async function listSignInProviders(db: Db): Promise<SignInProvider[]> {
  const rows = await db.selectFrom('sign_in_providers').selectAll().orderBy('created_at').execute();
  const sites = await sitesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toProvider(row, sites.get(row.id) ?? []));
}

/** One provider, or undefined. */
export async function findSignInProvider(db: Db, id: string): Promise<SignInProvider | undefined> {
  const row = await db
    .selectFrom('sign_in_providers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toProvider(row, (await sitesOf(db, [row.id])).get(row.id) ?? []);
}

/** The providers a site offers in its sign-in popup (switched on, with a secret), oldest first. */
export async function providersForSite(db: Db, siteId: string): Promise<SignInProvider[]> {
  const rows = await db
    .selectFrom('sign_in_providers')
    .innerJoin(
      'sign_in_provider_sites',
      'sign_in_provider_sites.provider_id',
      'sign_in_providers.id',
    )
    .selectAll('sign_in_providers')
    .where('sign_in_provider_sites.site_id', '=', siteId)
    .where('sign_in_providers.client_secret', '!=', '')
    .orderBy('sign_in_providers.created_at')
    .execute();
  const sites = await sitesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toProvider(row, sites.get(row.id) ?? []));
}

/**
 * The site a reader's request is about: given by id (the console, tests), or by the story's URL
 * (the popup and the profile know the story, not the site): the site that permits its origin.
 * Undefined when neither names one.
 */
export async function siteIdOf(
  db: Db,
  given: { siteId?: string | null; storyURL?: string | null },
): Promise<string | undefined> {
  if (given.siteId) return given.siteId;
  if (!given.storyURL) return undefined;
  let origin: string;
  try {
    origin = new URL(given.storyURL).origin;
  } catch {
    return undefined;
  }
  return (await findSiteByOrigin(db, origin))?.id;
}

/** The client secret in clear (it is stored sealed). */
export async function providerSecret(db: Db, box: SecretBox, id: string): Promise<string> {
  const row = await db
    .selectFrom('sign_in_providers')
    .select('client_secret')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.client_secret === '' ? '' : box.open(row.client_secret, providerSecretPurpose(id));
}

/** What an admin sets; on update, an absent field stays as it is and the secret only when given. */
export interface SignInProviderInput {
  kind: SignInProviderKind;
  name: string;
  issuerUrl: string;
  clientId: string;
  clientSecret?: string;
  siteIds: string[];
}

async function writeSites(trx: Db, providerId: string, siteIds: string[]): Promise<void> {
  await trx.deleteFrom('sign_in_provider_sites').where('provider_id', '=', providerId).execute();
  if (siteIds.length === 0) return;
  const known = await trx.selectFrom('sites').select('id').where('id', 'in', siteIds).execute();
  if (known.length !== new Set(siteIds).size) {
    throw new ParleyError('NOT_FOUND', 'One of those sites does not exist.', { field: 'siteIds' });
  }
  await trx
    .insertInto('sign_in_provider_sites')
    .values([...new Set(siteIds)].map((siteId) => ({ provider_id: providerId, site_id: siteId })))
    .execute();
}

/** Adds a provider (its secret sealed), all or nothing. */
export function createSignInProvider(
  db: Db,
  box: SecretBox,
  input: SignInProviderInput & { clientSecret: string },
): Promise<SignInProvider> {
  return inTransaction(db, async (trx) => {
    const id = newId();
    await trx
      .insertInto('sign_in_providers')
      .values({
        id,
        kind: input.kind,
        name: input.name,
        issuer_url: input.issuerUrl,
        client_id: input.clientId,
        client_secret: box.seal(input.clientSecret, providerSecretPurpose(id)),
        created_at: isoTime(),
      })
      .execute();
    await writeSites(trx, id, input.siteIds);
    return (await findSignInProvider(trx, id)) as SignInProvider;
  });
}

/** Changes a provider; `NOT_FOUND` when there is none. Its kind never changes. */
export function updateSignInProvider(
  db: Db,
  box: SecretBox,
  id: string,
  input: Partial<Omit<SignInProviderInput, 'kind'>>,
): Promise<SignInProvider> {
  return inTransaction(db, async (trx) => {
    const current = await findSignInProvider(trx, id);
    if (current === undefined) throw providerNotFound();
    // A `sub` is unique per issuer only: another issuer's account with the same `sub` would
    // sign in as someone connected here.
    if (input.issuerUrl !== undefined && input.issuerUrl !== current.issuerUrl) {
      const connected = await trx
        .selectFrom('user_identities')
        .select('id')
        .where('provider_id', '=', id)
        .executeTakeFirst();
      if (connected !== undefined) {
        throw new ParleyError(
          'INVALID_INPUT',
          'People have connected accounts of this issuer: add the new issuer as another provider instead.',
          { field: 'issuerUrl' },
        );
      }
    }
    await trx
      .updateTable('sign_in_providers')
      .set({
        name: input.name ?? current.name,
        issuer_url: input.issuerUrl ?? current.issuerUrl,
        client_id: input.clientId ?? current.clientId,
        ...(input.clientSecret === undefined
          ? {}
          : { client_secret: box.seal(input.clientSecret, providerSecretPurpose(id)) }),
      })
      .where('id', '=', id)
      .execute();
    if (input.siteIds !== undefined) await writeSites(trx, id, input.siteIds);
    return (await findSignInProvider(trx, id)) as SignInProvider;
  });
}

/**
 * Removes a provider, its connections and its flows under way. Refused while it is the only way
 * some account signs in (no password, no other provider, not an SSO account): those people would
 * be locked out; switched off for every site, it stays theirs to disconnect once they have
 * another way.
 */
export async function deleteSignInProvider(db: Db, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    if ((await findSignInProvider(trx, id)) === undefined) throw providerNotFound();
    const stranded = await trx
      .selectFrom('user_identities as i')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('i.provider_id', '=', id)
      .where('u.password_hash', 'is', null)
      .where('u.sso_site_id', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('user_identities as other')
              .select('other.id')
              .whereRef('other.user_id', '=', 'i.user_id')
              .where('other.provider_id', '!=', id),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    if (Number(stranded.count) > 0) {
      throw new ParleyError(
        'FORBIDDEN',
        `${Number(stranded.count)} account(s) sign in only with this provider: switch it off for every site instead, or ask them to set a password first.`,
        { field: 'id' },
      );
    }
    await trx.deleteFrom('sign_in_providers').where('id', '=', id).execute();
  });
}

function providerNotFound(): ParleyError {
  return new ParleyError('NOT_FOUND', 'There is no such sign-in provider.', { field: 'id' });
}

/** A provider account connected to a user. */
export interface UserIdentity {
  id: string;
  userId: string;
  providerId: string;
  subject: string;
  email: string | null;
  createdAt: string;
}

/** The user a provider account is connected to, or undefined. */
export async function findIdentity(
  db: Db,
  providerId: string,
  subject: string,
): Promise<UserIdentity | undefined> {
  const row = await db
    .selectFrom('user_identities')
    .selectAll()
    .where('provider_id', '=', providerId)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row && toIdentity(row);
}

function toIdentity(row: Selectable<UserIdentitiesTable>): UserIdentity {
  return {
    id: row.id,
    userId: row.user_id,
    providerId: row.provider_id,
    subject: row.subject,
    email: row.email,
    createdAt: row.created_at,
  };
}

/** A user's connected provider accounts, oldest first. */
export async function identitiesOf(db: Db, userId: string): Promise<UserIdentity[]> {
  const rows = await db
    .selectFrom('user_identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(toIdentity);
}

/**
 * Connects a provider account to a user. Connected to this user already: nothing changes;
 * connected to someone else: `SIGN_IN_IDENTITY_TAKEN` (one provider account, one Parley account).
 */
export async function connectIdentity(
  db: Db,
  input: { userId: string; providerId: string; subject: string; email: string | null },
): Promise<UserIdentity> {
  const existing = await findIdentity(db, input.providerId, input.subject);
  if (existing !== undefined) {
    if (existing.userId === input.userId) return existing;
    throw identityTaken();
  }
  const row = {
    id: newId(),
    user_id: input.userId,
    provider_id: input.providerId,
    subject: input.subject,
    email: input.email,
    created_at: isoTime(),
  };
  try {
    await db.insertInto('user_identities').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error, 'user_identities_subject_unique')) {
      // Connected at the same instant by another request: to this user, fine.
      const raced = await findIdentity(db, input.providerId, input.subject);
      if (raced?.userId === input.userId) return raced;
      throw identityTaken();
    }
    throw error;
  }
  return toIdentity(row);
}

function identityTaken(): ParleyError {
  return new ParleyError(
    'SIGN_IN_IDENTITY_TAKEN',
    'That account is connected to another Parley account already.',
  );
}

/**
 * Disconnects one of the user's provider accounts. Refused when it is their last way to sign in
 * (no password, no other connected provider): they would be locked out.
 */
export async function disconnectIdentity(
  db: Db,
  input: { userId: string; identityId: string; hasPassword: boolean },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    // PostgreSQL: the user's row is locked first, so two disconnects at once take turns (each
    // would otherwise see the other's connection left, and both go). SQLite writes one at a time.
    if (trx.getExecutor().adapter instanceof PostgresAdapter) {
      await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', input.userId)
        .forUpdate()
        .execute();
    }
    const mine = await identitiesOf(trx, input.userId);
    if (!mine.some((identity) => identity.id === input.identityId)) {
      throw new ParleyError('NOT_FOUND', 'That connection does not exist.', {
        field: 'identityId',
      });
    }
    // Only providers that still sign anyone in count as another way (on for a site, a secret).
    const working = new Set(
      (
        await trx
          .selectFrom('sign_in_provider_sites as s')
          .innerJoin('sign_in_providers as p', 'p.id', 's.provider_id')
          .select('p.id')
          .where('p.client_secret', '!=', '')
          .execute()
      ).map((row) => row.id),
    );
    const others = mine.filter(
      (identity) => identity.id !== input.identityId && working.has(identity.providerId),
    );
    if (!input.hasPassword && others.length === 0) {
      throw new ParleyError(
        'FORBIDDEN',
        'This is your only way to sign in: set a password (Forgot password?) or connect another provider first.',
        { field: 'identityId' },
      );
    }
    await trx.deleteFrom('user_identities').where('id', '=', input.identityId).execute();
  });
}
