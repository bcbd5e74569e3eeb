import { listUserHistory } from '../../../db/store/userModeration';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const USER = `user { id role status suspendedUntil }`;
const BAN = `mutation ($id: ID!, $message: String) { banUser(input: { userId: $id, message: $message }) { ${USER} } }`;
const UNBAN = `mutation ($id: ID!) { unbanUser(input: { userId: $id }) { ${USER} } }`;
const SUSPEND = `mutation ($id: ID!, $until: DateTime!, $message: String) {
  suspendUser(input: { userId: $id, until: $until, message: $message }) { ${USER} }
}`;
const PREMOD = `mutation ($id: ID!, $premod: Boolean!) { setUserPremod(input: { userId: $id, premod: $premod }) { ${USER} } }`;
const ROLE = `mutation ($id: ID!, $role: Role!) { setUserRole(input: { userId: $id, role: $role }) { ${USER} } }`;

const code = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.code;

describe.each(testDialects())('user actions on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('bans with a message: BANNED, a history entry, the message emailed', async () => {
    const data = await api.ok(
      BAN,
      { id: c.target.user.id, message: '  Please read the guidelines.  ' },
      c.moderator.token,
    );
    expect(data.banUser.user).toMatchObject({ id: c.target.user.id, status: 'BANNED' });
    expect(await listUserHistory(api.db, c.target.user.id)).toMatchObject([
      { actor_id: c.moderator.user.id, action: 'BAN', message: 'Please read the guidelines.' },
    ]);
    expect(api.mail).toHaveLength(1);
    expect(api.mail[0]).toMatchObject({ to: 'target@example.com' });
    expect(api.mail[0]!.text).toContain('Please read the guidelines.');
  });

  it('bans without a message: no email', async () => {
    await api.ok(BAN, { id: c.target.user.id }, c.moderator.token);
    expect(api.mail).toEqual([]);
  });

  it('unbans: a ban and a suspension are both lifted', async () => {
    await api.ok(BAN, { id: c.target.user.id }, c.moderator.token);
    await api.ok(
      SUSPEND,
      { id: c.target.user.id, until: '2999-01-01T00:00:00.000Z' },
      c.moderator.token,
    );
    const data = await api.ok(UNBAN, { id: c.target.user.id }, c.moderator.token);
    expect(data.unbanUser.user).toMatchObject({ status: 'ACTIVE', suspendedUntil: null });
    const actions = (await listUserHistory(api.db, c.target.user.id)).map((h) => h.action);
    expect(actions).toEqual(['BAN', 'SUSPEND', 'UNBAN']);
  });

  it('suspends until a future time and emails the message; the past is INVALID_INPUT', async () => {
    api.setNow(new Date('2030-01-01T00:00:00.000Z'));
    const until = '2030-01-02T00:00:00.000Z';
    const data = await api.ok(
      SUSPEND,
      { id: c.target.user.id, until, message: 'A day off.' },
      c.moderator.token,
    );
    expect(data.suspendUser.user).toMatchObject({ status: 'SUSPENDED', suspendedUntil: until });
    expect(api.mail[0]?.text).toContain('A day off.');
    const past = await api.request(
      SUSPEND,
      { id: c.target.user.id, until: '2029-12-31T23:59:59.000Z' },
      c.moderator.token,
    );
    expect(past.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'until' });
  });

  it('sets and clears premod', async () => {
    const on = await api.ok(PREMOD, { id: c.target.user.id, premod: true }, c.moderator.token);
    expect(on.setUserPremod.user.status).toBe('PREMOD');
    const off = await api.ok(PREMOD, { id: c.target.user.id, premod: false }, c.moderator.token);
    expect(off.setUserPremod.user.status).toBe('ACTIVE');
  });

  it('keeps the decision when mail fails', async () => {
    api.deps.mailer.send = async () => {
      throw new Error('SMTP down');
    };
    const data = await api.ok(BAN, { id: c.target.user.id, message: 'Bye' }, c.moderator.token);
    expect(data.banUser.user.status).toBe('BANNED');
  });

  describe('who may act on whom', () => {
    it('a moderator cannot ban, suspend or premod an admin or another moderator', async () => {
      const other = await c.member('other_mod', 'MODERATOR');
      for (const id of [c.admin.user.id, other.user.id]) {
        for (const [query, vars] of [
          [BAN, {}],
          [SUSPEND, { until: '2999-01-01T00:00:00.000Z' }],
          [PREMOD, { premod: true }],
        ] as const) {
          const answer = await api.request(query, { id, ...vars }, c.moderator.token);
          expect(code(answer)).toBe('FORBIDDEN');
        }
      }
      expect(await listUserHistory(api.db, other.user.id)).toEqual([]);
    });

    it('a moderator can act on staff; an admin on moderators, not on admins', async () => {
      expect(code(await api.request(BAN, { id: c.staff.user.id }, c.moderator.token))).toBe(
        undefined,
      );
      expect(code(await api.request(BAN, { id: c.moderator.user.id }, c.admin.token))).toBe(
        undefined,
      );
      const admin2 = await c.member('admin2', 'ADMIN');
      expect(code(await api.request(BAN, { id: admin2.user.id }, c.admin.token))).toBe('FORBIDDEN');
    });

    it('nobody acts on themself', async () => {
      for (const member of [c.moderator, c.admin]) {
        const answer = await api.request(BAN, { id: member.user.id }, member.token);
        expect(code(answer)).toBe('FORBIDDEN');
      }
    });

    it('an unknown user is NOT_FOUND', async () => {
      expect(code(await api.request(BAN, { id: 'nope' }, c.moderator.token))).toBe('NOT_FOUND');
    });
  });

  describe('setUserRole', () => {
    it('promotes a commenter to moderator, who can then moderate', async () => {
      const data = await api.ok(
        ROLE,
        { id: c.commenter.user.id, role: 'MODERATOR' },
        c.admin.token,
      );
      expect(data.setUserRole.user.role).toBe('MODERATOR');
      // The token still says COMMENTER: permissions follow the stored role.
      const counts = await api.request(`{ moderationCounts { pending } }`, {}, c.commenter.token);
      expect(counts.errors).toBeUndefined();
      expect(await listUserHistory(api.db, c.commenter.user.id)).toMatchObject([
        { action: 'ROLE', message: 'COMMENTER → MODERATOR', actor_id: c.admin.user.id },
      ]);
    });

    it('refuses the last admin’s own demotion; allows it once another admin exists', async () => {
      const alone = await api.request(
        ROLE,
        { id: c.admin.user.id, role: 'MODERATOR' },
        c.admin.token,
      );
      expect(code(alone)).toBe('FORBIDDEN');
      await c.member('admin2', 'ADMIN');
      const data = await api.ok(ROLE, { id: c.admin.user.id, role: 'MODERATOR' }, c.admin.token);
      expect(data.setUserRole.user.role).toBe('MODERATOR');
    });

    it('lets an admin demote another admin', async () => {
      const admin2 = await c.member('admin2', 'ADMIN');
      const data = await api.ok(ROLE, { id: admin2.user.id, role: 'COMMENTER' }, c.admin.token);
      expect(data.setUserRole.user.role).toBe('COMMENTER');
    });
  });
});
