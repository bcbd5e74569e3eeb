import { install, updateSettings } from '../db/store/organization';
import type { InstallInput } from '../db/store/organization';
import { testBox } from '../db/testFixtures';
import { useTestDatabase } from '../db/testDatabases';
import type { Db } from '../db/inTransaction';
import { createOrganizationCache } from './organizationCache';

const INSTALL: InstallInput = {
  organization: { name: 'Daily', contactEmail: 'team@daily.example', url: 'https://daily.example' },
  site: { name: 'Daily', url: 'https://daily.example', allowedOrigins: ['https://daily.example'] },
  admin: { email: 'admin@daily.example', username: 'admin', passwordHash: 'argon2-hash' },
};

/** `db` whose `selectFrom` goes through `select` first (Kysely's own methods bound to it). */
function intercepted(db: Db, select: (table: string) => void): Db {
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'selectFrom') {
        return (table: 'organization') => {
          select(table);
          return target.selectFrom(table);
        };
      }
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

/** `db` counting its reads of the organization table. */
function counting(db: Db): { db: Db; reads: () => number } {
  let reads = 0;
  const wrapped = intercepted(db, (table) => {
    if (table === 'organization') reads += 1;
  });
  return { db: wrapped, reads: () => reads };
}

describe('the organization kept between requests', () => {
  const t = useTestDatabase('sqlite');
  let clock = 0;
  const now = () => clock;

  beforeEach(() => {
    clock = 1_000_000;
  });

  it('reads once for many requests within its time, again after it or once dropped', async () => {
    await install(t.db, INSTALL, testBox);
    const { db, reads } = counting(t.db);
    const cache = createOrganizationCache({ db, ttlMs: 5_000, now });
    const [first, second] = await Promise.all([cache.get(), cache.get()]);
    expect(first?.name).toBe('Daily');
    expect(second).toBe(first);
    expect(reads()).toBe(1);

    // Changed behind its back: the kept row until its time is up.
    await updateSettings(t.db, { bannedWords: ['darn'] });
    clock += 4_999;
    expect((await cache.get())?.settings.bannedWords).toEqual([]);
    clock += 1;
    expect((await cache.get())?.settings.bannedWords).toEqual(['darn']);
    expect(reads()).toBe(2);

    // Dropped (a change announced): the next request reads it.
    await updateSettings(t.db, { bannedWords: ['heck'] });
    cache.invalidate();
    expect((await cache.get())?.settings.bannedWords).toEqual(['heck']);
    expect(reads()).toBe(3);
  });

  it('keeps no organization before install: the wizard’s makes it at once', async () => {
    const cache = createOrganizationCache({ db: t.db, ttlMs: 5_000, now });
    expect(await cache.get()).toBeUndefined();
    await install(t.db, INSTALL, testBox);
    expect((await cache.get())?.name).toBe('Daily');
  });

  it('does not keep a read an invalidation overtook, nor a failed one', async () => {
    await install(t.db, INSTALL, testBox);
    const { db, reads } = counting(t.db);
    const cache = createOrganizationCache({ db, ttlMs: 5_000, now });
    // A read in flight when the row changes and the change is announced: it may hold the row
    // from before, so the next request reads again.
    const overtaken = cache.get();
    await updateSettings(t.db, { bannedWords: ['darn'] });
    cache.invalidate();
    await overtaken;
    expect((await cache.get())?.settings.bannedWords).toEqual(['darn']);
    expect(reads()).toBe(2);

    let fail = true;
    const failing = intercepted(t.db, () => {
      if (fail) throw new Error('database away');
    });
    const afterFailure = createOrganizationCache({ db: failing, ttlMs: 5_000, now });
    await expect(afterFailure.get()).rejects.toThrow('database away');
    fail = false;
    expect((await afterFailure.get())?.name).toBe('Daily');
  });
});
