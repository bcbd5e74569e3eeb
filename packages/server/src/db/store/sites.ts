/** Sites, their permitted origins and their SSO signing keys. */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import { SSO_KEY_ROTATION_OVERLAP_SECONDS } from '../../defaults';
import { ParleyError } from '../../ParleyError';
import { escapeLike, inTransaction, isoTime, newId, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import { ssoKeyPurpose } from '../../auth/secretBox';
import type { SecretBox } from '../../auth/secretBox';
import type { SitesTable, SsoKeysTable } from '../schema';

/** A site as the resolvers see it. */
export interface Site {
  id: string;
  name: string;
  url: string;
  /** Normalized origins (`https://example.com`) allowed to embed. */
  allowedOrigins: string[];
  createdAt: string;
  /** Longest `exp - iat` this site's SSO tokens may have; null for the default (24 hours). */
  ssoTokenMaxLifetimeSeconds: number | null;
}

/** An SSO signing key, as stored: its secret sealed (auth/secretBox.ts). */
export interface SsoKey {
  id: string;
  siteId: string;
  /** The secret as stored, sealed: `SecretBox.open(…, ssoKeyPurpose(id))` gives it in clear. */
  sealedSecret: string;
  createdAt: string;
  /** Null while current; after a rotation, the end of the overlap. */
  expiresAt: string | null;
  revoked: boolean;
}

function toSite(row: Selectable<SitesTable>): Site {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    allowedOrigins: parseJson<string[]>(row.allowed_origins, []),
    createdAt: row.created_at,
    ssoTokenMaxLifetimeSeconds: row.sso_token_max_lifetime_seconds,
  };
}

function toSsoKey(row: Selectable<SsoKeysTable>): SsoKey {
  return {
    id: row.id,
    siteId: row.site_id,
    sealedSecret: row.secret,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revoked: row.revoked === 1,
  };
}

/**
 * The canonical form of an origin (`scheme://host[:port]`, lower-case, default port dropped), so
 * `https://Example.com/` and `https://example.com` match. Throws `INVALID_INPUT` when not a URL.
 */
export function normalizeOrigin(origin: string): string {
  try {
    const { origin: normalized } = new URL(origin);
    if (normalized !== 'null') return normalized;
  } catch {
    // fall through
  }
  throw new ParleyError('INVALID_INPUT', `Not an origin: ${origin}`, { field: 'allowedOrigins' });
}

/** What a site is made of. */
export interface SiteInput {
  name: string;
  url: string;
  allowedOrigins: readonly string[];
  /** Longest SSO token life accepted, in seconds; null for the default. @default null */
  ssoTokenMaxLifetimeSeconds?: number | null;
}

/** A key just made: the only time its secret is at hand in clear (shown once to the admin). */
export interface NewSsoKey extends SsoKey {
  secret: string;
}

/** Creates a site with its first SSO key (one transaction); `box` seals the key's secret. */
export function createSite(
  db: Db,
  input: SiteInput,
  box: SecretBox,
): Promise<{ site: Site; key: NewSsoKey }> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('sites')
      .values({
        id: newId(),
        name: input.name,
        url: input.url,
        allowed_origins: JSON.stringify([...new Set(input.allowedOrigins.map(normalizeOrigin))]),
        created_at: isoTime(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const key = await addSsoKey(trx, row.id, box);
    return { site: toSite(row), key };
  });
}

/** Changes a site's name, URL or origins; `NOT_FOUND` when there is no such site. */
export async function updateSite(db: Db, id: string, patch: Partial<SiteInput>): Promise<Site> {
  const row = await db
    .updateTable('sites')
    .set({
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.url === undefined ? {} : { url: patch.url }),
      ...(patch.ssoTokenMaxLifetimeSeconds === undefined
        ? {}
        : { sso_token_max_lifetime_seconds: patch.ssoTokenMaxLifetimeSeconds }),
      ...(patch.allowedOrigins === undefined
        ? {}
        : {
            allowed_origins: JSON.stringify([
              ...new Set(patch.allowedOrigins.map(normalizeOrigin)),
            ]),
          }),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined) throw new ParleyError('NOT_FOUND', `No site ${id}.`);
  return toSite(row);
}

/** Every site, oldest first (an install has few). */
export async function listSites(db: Db): Promise<Site[]> {
  const rows = await db
    .selectFrom('sites')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toSite);
}

/** The site with `id`, if any. */
export async function findSiteById(db: Db, id: string): Promise<Site | undefined> {
  const row = await db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toSite(row);
}

/** The site that permits `origin`, if any (the first created, should two permit it). */
export async function findSiteByOrigin(db: Db, origin: string): Promise<Site | undefined> {
  let normalized: string;
  try {
    normalized = normalizeOrigin(origin);
  } catch {
    return undefined;
  }
  // LIKE narrows the rows in SQL; the exact check on the parsed array rules out partial matches.
  const pattern = `%${escapeLike(JSON.stringify(normalized))}%`;
  const rows = await db
    .selectFrom('sites')
    .selectAll()
    .where(sql<boolean>`allowed_origins like ${pattern} escape '\\'`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toSite).find((site) => site.allowedOrigins.includes(normalized));
}

/** Adds a new current key to a site (random 256-bit secret, stored sealed by `box`). */
export async function addSsoKey(db: Db, siteId: string, box: SecretBox): Promise<NewSsoKey> {
  const secret = randomBytes(32).toString('base64url');
  // The id first: the sealed secret is bound to its row.
  const id = newId();
  const row = await db
    .insertInto('sso_keys')
    .values({
      id,
      site_id: siteId,
      secret: box.seal(secret, ssoKeyPurpose(id)),
      created_at: isoTime(),
      expires_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...toSsoKey(row), secret };
}

/**
 * Rotates a site's key: current keys keep verifying until now + `overlapSeconds` (so hosts can
 * deploy the new secret), and a new current key is returned. One transaction.
 */
export function rotateSsoKey(
  db: Db,
  siteId: string,
  box: SecretBox,
  overlapSeconds: number = SSO_KEY_ROTATION_OVERLAP_SECONDS,
): Promise<NewSsoKey> {
  return inTransaction(db, async (trx) => {
    const expiresAt = isoTime(new Date(Date.now() + overlapSeconds * 1000));
    await trx
      .updateTable('sso_keys')
      .set({ expires_at: expiresAt })
      .where('site_id', '=', siteId)
      .where('expires_at', 'is', null)
      .where('revoked', '=', 0)
      .execute();
    return addSsoKey(trx, siteId, box);
  });
}

/** Revokes a key at once (a leaked secret). */
export async function revokeSsoKey(db: Db, keyId: string): Promise<void> {
  await db.updateTable('sso_keys').set({ revoked: 1 }).where('id', '=', keyId).execute();
}

/** Keys that verify tokens now: not revoked, not past their expiry. Newest first. */
export async function listActiveSsoKeys(
  db: Db,
  siteId: string,
  now: string = isoTime(),
): Promise<SsoKey[]> {
  const rows = await db
    .selectFrom('sso_keys')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('revoked', '=', 0)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toSsoKey);
}
