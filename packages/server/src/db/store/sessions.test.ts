import { seedBasics } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { revokeSession } from './sessionRevocation';
import { findSessionStanding, recordSession, touchSession } from './sessions';
import { findUserById } from './users';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 12, minutes));

describe.each(testDialects())('session standing on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  it('reads the user, the sign-out and the last use of a session in one answer', async () => {
    const { users } = await seedBasics(t.db, { userCount: 2 });
    const [owner, other] = [users[0]!, users[1]!];
    const session = {
      id: 'jti-1',
      userId: owner.id,
      epoch: owner.sessionEpoch,
      secondFactor: false,
      userAgent: null,
      expiresAt: at(600),
    };
    await recordSession(t.db, session, at(0));

    expect(await findSessionStanding(t.db, owner.id, 'jti-1')).toEqual({
      user: await findUserById(t.db, owner.id),
      revoked: false,
      lastUsed: at(0).toISOString(),
    });
    await touchSession(t.db, 'jti-1', at(0).toISOString(), at(30));
    expect((await findSessionStanding(t.db, owner.id, 'jti-1'))?.lastUsed).toBe(
      at(30).toISOString(),
    );

    // A token from before the sessions table (no row): its user, not signed out, no last use.
    expect(await findSessionStanding(t.db, other.id, 'jti-unlisted')).toEqual({
      user: await findUserById(t.db, other.id),
      revoked: false,
      lastUsed: undefined,
    });

    await revokeSession(t.db, 'jti-1', at(600), at(31));
    expect((await findSessionStanding(t.db, owner.id, 'jti-1'))?.revoked).toBe(true);
    // Another token of the same user is not touched by that sign-out.
    expect((await findSessionStanding(t.db, owner.id, 'jti-2'))?.revoked).toBe(false);

    expect(await findSessionStanding(t.db, 'no-such-user', 'jti-1')).toBeUndefined();
  });
});
