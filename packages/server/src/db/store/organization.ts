/** The organization: install, settings. */
import type { Selectable } from 'kysely';
import { DEFAULT_SETTINGS } from '../../defaults';
import { ParleyError } from '../../ParleyError';
import { inTransaction, isoTime, newId, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import { isUniqueViolation } from '../isUniqueViolation';
import type { OrganizationTable } from '../schema';
import type { SecretBox } from '../../auth/secretBox';
import { createSite } from './sites';
import type { NewSsoKey, Site, SiteInput } from './sites';
import { createUser } from './users';
import type { User } from './users';

// DEFAULT_SETTINGS is frozen, so TypeScript infers its literal values (`3`, `true`); widen them
// (its text values are declared `as string` there, its one union `as` that union).
type Widen<T> = T extends boolean
  ? boolean
  : T extends number
    ? number
    : T extends readonly string[]
      ? string[]
      : T;

/** Organization settings: the shape of `DEFAULT_SETTINGS`, every field writable and widened. */
export type Settings = {
  -readonly [K in keyof typeof DEFAULT_SETTINGS]: Widen<(typeof DEFAULT_SETTINGS)[K]>;
};

/** The organization as the resolvers see it. */
export interface Organization {
  id: string;
  name: string;
  contactEmail: string;
  url: string;
  locale: string;
  /** Stored settings over `DEFAULT_SETTINGS`: a setting added later has its default. */
  settings: Settings;
  createdAt: string;
  /** Its spam model's stamp (store/spamModel.ts); '' before the first lesson. */
  spamModelStamp: string;
  /** The events some enabled webhook takes (store/webhooks.ts): an event no endpoint takes costs nothing. */
  webhookEvents: readonly string[];
}

/**
 * Frozen, lists and settings too: one read is shared by every request of a process
 * (runtime/organizationCache.ts), so a request changing what it was given would change it for all.
 */
function toOrganization(row: Selectable<OrganizationTable>): Organization {
  const settings = { ...DEFAULT_SETTINGS, ...parseJson<Partial<Settings>>(row.settings, {}) };
  for (const value of Object.values(settings)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze({
    id: row.id,
    name: row.name,
    contactEmail: row.contact_email,
    url: row.url,
    locale: row.locale,
    settings: Object.freeze(settings),
    createdAt: row.created_at,
    spamModelStamp: row.spam_model_stamp,
    webhookEvents: Object.freeze(row.webhook_events === '' ? [] : row.webhook_events.split(' ')),
  });
}

/** The organization, or undefined before install. */
export async function getOrganization(db: Db): Promise<Organization | undefined> {
  const row = await db.selectFrom('organization').selectAll().executeTakeFirst();
  return row && toOrganization(row);
}

/** Settings in force (the defaults before install). */
export async function getSettings(db: Db): Promise<Settings> {
  return (await getOrganization(db))?.settings ?? { ...DEFAULT_SETTINGS };
}

/** What the install wizard sends (the password already hashed). */
export interface InstallInput {
  organization: { name: string; contactEmail: string; url: string; locale?: string };
  site: SiteInput;
  admin: { email: string; username: string; passwordHash: string };
}

/** What an install created. */
export interface InstallResult {
  organization: Organization;
  site: Site;
  /** The site's first SSO key, its secret in clear this once. */
  key: NewSsoKey;
  admin: User;
}

/**
 * Creates the organization, its first site and the admin, all or nothing. A second install — even
 * a concurrent one — is `ALREADY_INSTALLED` (the organization row is a unique singleton).
 */
export async function install(db: Db, input: InstallInput, box: SecretBox): Promise<InstallResult> {
  try {
    return await inTransaction(db, async (trx) => {
      if ((await getOrganization(trx)) !== undefined) throw alreadyInstalled();
      const row = await trx
        .insertInto('organization')
        .values({
          id: newId(),
          singleton: 1,
          name: input.organization.name,
          contact_email: input.organization.contactEmail,
          url: input.organization.url,
          locale: input.organization.locale ?? 'en',
          settings: '{}',
          created_at: isoTime(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const { site, key } = await createSite(trx, input.site, box);
      const admin = await createUser(trx, {
        ...input.admin,
        role: 'ADMIN',
        emailVerified: true,
      });
      return { organization: toOrganization(row), site, key, admin };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'organization_singleton_unique')) throw alreadyInstalled();
    throw error;
  }
}

/** The error of an install on an installed database (the wizard, `parley install`, the store). */
export function alreadyInstalled(): ParleyError {
  return new ParleyError('ALREADY_INSTALLED', 'Parley is already installed.');
}

async function requireOrganization(db: Db): Promise<Organization> {
  const organization = await getOrganization(db);
  if (organization === undefined) throw new ParleyError('NOT_INSTALLED', 'Install Parley first.');
  return organization;
}

/**
 * Merges `patch` into the stored settings and returns the result. Read-modify-write in one
 * transaction; two admins saving different fields at the same instant on PostgreSQL may lose one
 * change (last writer wins), which the console's single settings form makes acceptable.
 */
export function updateSettings(db: Db, patch: Partial<Settings>): Promise<Settings> {
  return inTransaction(db, async (trx) => {
    const organization = await requireOrganization(trx);
    const stored = { ...organization.settings, ...patch };
    await trx
      .updateTable('organization')
      .set({ settings: JSON.stringify(stored) })
      .where('id', '=', organization.id)
      .execute();
    return stored;
  });
}

/** Changes the organization's name, contact email, URL or locale. */
export async function updateOrganization(
  db: Db,
  patch: Partial<Pick<Organization, 'name' | 'contactEmail' | 'url' | 'locale'>>,
): Promise<Organization> {
  const organization = await requireOrganization(db);
  const row = await db
    .updateTable('organization')
    .set({
      name: patch.name ?? organization.name,
      contact_email: patch.contactEmail ?? organization.contactEmail,
      url: patch.url ?? organization.url,
      locale: patch.locale ?? organization.locale,
    })
    .where('id', '=', organization.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toOrganization(row);
}
