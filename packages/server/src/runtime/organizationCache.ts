import type { Db } from '../db/inTransaction';
import { getOrganization } from '../db/store/organization';
import type { Organization } from '../db/store/organization';

/**
 * The organization row (its settings, the spam model's stamp, the events webhooks take), kept
 * by each process between requests. Every request reads it, and on PostgreSQL that read was one
 * of a post's nine round trips (bench:scale, section 5).
 *
 * A change made by this server drops it at once everywhere: the resolver that changed it calls
 * `organizationChanged` (graphql/events.ts), which drops this process's copy and tells the others
 * over the pub/sub (`organizationChanged`, through Redis when there is one). The time to live
 * bounds what no announcement covers: a change by another command (`parley secrets`), an
 * hourly fold of the spam model, an announcement lost while Redis was away.
 */
export interface OrganizationCache {
  /** The organization, or undefined before install (which is never kept). */
  get(): Promise<Organization | undefined>;
  /** Forgets the kept row: the next request reads it again. */
  invalidate(): void;
}

/** Options of {@link createOrganizationCache}. */
export interface OrganizationCacheOptions {
  db: Db;
  /** Longest a read row is used, in ms. */
  ttlMs: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

export function createOrganizationCache({
  db,
  ttlMs,
  now = Date.now,
}: OrganizationCacheOptions): OrganizationCache {
  // The promise is kept from the moment its read begins, not the row once read: concurrent
  // requests share one read, and an invalidation drops a read still in flight too (it may hold
  // the row from before the change).
  let kept: { at: number; organization: Promise<Organization | undefined> } | undefined;
  const load = () => {
    const entry = { at: now(), organization: getOrganization(db) };
    const forget = () => {
      if (kept === entry) kept = undefined;
    };
    // Not kept when the read fails, or finds no organization (the install wizard is about to
    // make it).
    entry.organization.then((organization) => {
      if (organization === undefined) forget();
    }, forget);
    kept = entry;
    return entry.organization;
  };
  return {
    get() {
      if (kept === undefined || now() - kept.at >= ttlMs) return load();
      return kept.organization;
    },
    invalidate() {
      kept = undefined;
    },
  };
}
