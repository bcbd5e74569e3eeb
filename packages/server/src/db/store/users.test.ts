import { isParleyError } from '../../ParleyError';
import { isUniqueViolation } from '../isUniqueViolation';
import { seedBasics } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { listUserHistory, listUsers, moderateUser } from './userModeration';
import {
  createUser,
  findUserByEmail,
  findUserByUsername,
  updateUser,
  upsertSsoUser,
} from './users';

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.each(testDialects())('users store on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  const base = { username: 'Alice', email: 'Alice@Example.com', passwordHash: 'h' };

  it('finds users by email and username case-insensitively', async () => {
    const alice = await createUser(t.db, base);
    expect(alice).toMatchObject({ role: 'COMMENTER', banned: false, premod: false });
    expect((await findUserByEmail(t.db, 'alice@EXAMPLE.com'))?.id).toBe(alice.id);
    expect((await findUserByUsername(t.db, 'ALICE'))?.id).toBe(alice.id);
    expect((await findUserByEmail(t.db, 'alice@example.com'))?.email).toBe('Alice@Example.com');
  });

  it('refuses an email differing only in case with EMAIL_TAKEN on field email', async () => {
    await createUser(t.db, base);
    const error = await errorOf(
      createUser(t.db, { ...base, username: 'bob', email: 'ALICE@example.COM' }),
    );
    expect(isParleyError(error) && error.code).toBe('EMAIL_TAKEN');
    expect(isParleyError(error) && error.extensions.field).toBe('email');
  });

  it('refuses a username differing only in case with USERNAME_TAKEN', async () => {
    await createUser(t.db, base);
    const error = await errorOf(
      createUser(t.db, { ...base, username: 'aLiCe', email: 'b@example.com' }),
    );
    expect(isParleyError(error) && error.code).toBe('USERNAME_TAKEN');
  });

  it('maps taken names on update too', async () => {
    await createUser(t.db, base);
    const bob = await createUser(t.db, { ...base, username: 'bob', email: 'bob@example.com' });
    const error = await errorOf(updateUser(t.db, bob.id, { email: 'alice@example.com' }));
    expect(isParleyError(error) && error.code).toBe('EMAIL_TAKEN');
    const renamed = await updateUser(t.db, bob.id, { username: 'Bobby', emailVerified: true });
    expect(renamed).toMatchObject({ username: 'Bobby', emailVerified: true });
  });

  it('recognises the raw driver error with isUniqueViolation, by index or by table.column', async () => {
    await createUser(t.db, base);
    const raw = await errorOf(
      t.db
        .insertInto('users')
        .values({
          id: 'x',
          username: 'z',
          username_key: 'z',
          email: 'a',
          email_key: 'alice@example.com',
          role: 'COMMENTER',
          notification_prefs: '{}',
          created_at: '2024-01-01T00:00:00.000Z',
        })
        .execute(),
    );
    expect(isUniqueViolation(raw)).toBe(true);
    expect(isUniqueViolation(raw, 'users_email_key_unique')).toBe(true);
    expect(isUniqueViolation(raw, 'users.email_key')).toBe(true);
    expect(isUniqueViolation(raw, 'users_username_key_unique')).toBe(false);
    expect(isUniqueViolation(raw, 'users.username_key')).toBe(false);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed: users.email_key'))).toBe(false);
  });

  it('creates an SSO user once and refreshes their profile on later sign-ins', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    const sso = { siteId: site.id, ssoId: 'host-42', email: 'h@example.com', username: 'host42' };
    const results = await Promise.all([1, 2, 3].map(() => upsertSsoUser(t.db, sso)));
    expect(new Set(results.map((u) => u.id)).size).toBe(1);
    expect(results[0]).toMatchObject({ passwordHash: null, ssoId: 'host-42', emailVerified: true });
    const again = await upsertSsoUser(t.db, { ...sso, username: 'renamed' });
    expect(again).toMatchObject({ id: results[0]!.id, username: 'renamed' });
  });

  it('bans, suspends and changes roles with a history entry each', async () => {
    const { users } = await seedBasics(t.db, { userCount: 2, roles: ['COMMENTER', 'ADMIN'] });
    const [user, admin] = users as [(typeof users)[0], (typeof users)[0]];
    await moderateUser(t.db, {
      userId: user.id,
      actorId: admin.id,
      action: 'BAN',
      banned: true,
      message: 'spam',
    });
    const until = new Date(Date.now() + 3600_000).toISOString();
    await moderateUser(t.db, {
      userId: user.id,
      actorId: admin.id,
      action: 'SUSPEND',
      suspendedUntil: until,
    });
    const promoted = await moderateUser(t.db, {
      userId: user.id,
      actorId: admin.id,
      action: 'ROLE',
      role: 'MODERATOR',
    });
    expect(promoted).toMatchObject({ banned: true, suspendedUntil: until, role: 'MODERATOR' });
    const history = await listUserHistory(t.db, user.id);
    expect(history.map((h) => h.action).sort()).toEqual(['BAN', 'ROLE', 'SUSPEND']);
    expect(history.find((h) => h.action === 'BAN')?.message).toBe('spam');
  });

  it('lists users with query, role and status filters across pages', async () => {
    const { users } = await seedBasics(t.db, { userCount: 5, roles: ['COMMENTER', 'MODERATOR'] });
    await moderateUser(t.db, { userId: users[2]!.id, actorId: null, action: 'BAN', banned: true });
    await moderateUser(t.db, {
      userId: users[3]!.id,
      actorId: null,
      action: 'PREMOD',
      premod: true,
    });
    const future = new Date(Date.now() + 60_000).toISOString();
    await moderateUser(t.db, {
      userId: users[4]!.id,
      actorId: null,
      action: 'SUSPEND',
      suspendedUntil: future,
    });
    const ids = async (filter: Parameters<typeof listUsers>[1]) =>
      (await listUsers(t.db, filter, { first: 50 })).edges.map((e) => e.node.username).sort();
    expect(await ids({ status: 'BANNED' })).toEqual(['user2']);
    expect(await ids({ status: 'PREMOD' })).toEqual(['user3']);
    expect(await ids({ status: 'SUSPENDED' })).toEqual(['user4']);
    expect(await ids({ status: 'ACTIVE' })).toEqual(['user0', 'user1']);
    expect(await ids({ role: 'MODERATOR' })).toEqual(['user1']);
    expect(await ids({ query: 'USER3@' })).toEqual(['user3']);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<typeof listUsers>> = await listUsers(
        t.db,
        {},
        { first: 2, after },
      );
      seen.push(...page.edges.map((e) => e.node.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen.sort()).toEqual(users.map((u) => u.id).sort());
  });
});
