import { listAuditLog } from '../../../db/store/auditLog';
import { getSettings, updateSettings } from '../../../db/store/organization';
import { findUserById } from '../../../db/store/users';
import { subscribeSse } from '../../testing/subscribeSse';
import { deleteAccount } from '../../../db/store/accountDeletion';
import { API_TOKEN_PREFIX, API_TOKEN_TOUCH_MS } from '../../../db/store/apiTokens';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const CREATE = `mutation ($input: CreateApiTokenInput!) {
  createApiToken(input: $input) {
    apiToken { id name scope secret createdBy { username } createdAt lastUsedAt revokedAt }
  }
}`;
const REVOKE = `mutation ($id: ID!) {
  revokeApiToken(input: { tokenId: $id }) { apiToken { id revokedAt secret } }
}`;
const LIST = `{ apiTokens { id name scope secret lastUsedAt revokedAt } }`;
const DECIDE = (name: string) =>
  `mutation ($id: ID!) { ${name}(input: { commentId: $id }) { comment { id status } } }`;
const SETTINGS = `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { reportThreshold } } }`;

describe.each(testDialects())('API tokens on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  async function make(scope: string, name = `${scope} token`) {
    const data = await api.ok(CREATE, { input: { name, scope } }, c.admin.token);
    return data.createApiToken.apiToken as { id: string; secret: string; name: string };
  }
  const codeOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
    answer.errors?.[0]?.extensions?.['code'];

  it('answers the secret once, lists the token without it, and audits the creation', async () => {
    const data = await api.ok(
      CREATE,
      { input: { name: '  Backups ', scope: 'READ' } },
      c.admin.token,
    );
    const created = data.createApiToken.apiToken;
    expect(created).toMatchObject({
      name: 'Backups',
      scope: 'READ',
      createdBy: { username: c.admin.user.username },
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(created.secret).toMatch(new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    const listed = (await api.ok(LIST, {}, c.admin.token)).apiTokens;
    expect(listed).toEqual([
      {
        id: created.id,
        name: 'Backups',
        scope: 'READ',
        secret: null,
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    // Only its hash is stored.
    const stored = await api.db.selectFrom('api_tokens').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    const log = await listAuditLog(api.db, {}, { first: 5 });
    expect(log.edges[0]?.node).toMatchObject({
      action: 'API_TOKEN_CREATE',
      targetType: 'api_token',
      targetLabel: 'Backups',
      actorId: c.admin.user.id,
    });
  });

  it('is for admins in a session of their own, with a coded error for each bad input', async () => {
    const input = { name: 'Bot', scope: 'ADMIN' };
    expect(codeOf(await api.request(CREATE, { input }, c.moderator.token))).toBe('FORBIDDEN');
    expect(codeOf(await api.request(CREATE, { input }))).toBe('UNAUTHENTICATED');
    expect(codeOf(await api.request(LIST, {}, c.moderator.token))).toBe('FORBIDDEN');
    for (const name of ['', '   ', 'x'.repeat(81)]) {
      const answer = await api.request(CREATE, { input: { ...input, name } }, c.admin.token);
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'name',
      });
    }
    const bot = await make('ADMIN', 'Bot');
    const twice = await api.request(CREATE, { input: { ...input, name: 'BOT' } }, c.admin.token);
    expect(twice.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'name' });
    // A token cannot make or revoke tokens, whatever its scope.
    expect(
      codeOf(await api.request(CREATE, { input: { ...input, name: 'Heir' } }, bot.secret)),
    ).toBe('FORBIDDEN');
    expect(codeOf(await api.request(REVOKE, { id: bot.id }, bot.secret))).toBe('FORBIDDEN');
    // Once revoked, its name is free again.
    await api.ok(REVOKE, { id: bot.id }, c.admin.token);
    await make('READ', 'Bot');
    expect(codeOf(await api.request(REVOKE, { id: 'no-such-token' }, c.admin.token))).toBe(
      'NOT_FOUND',
    );
    expect(await api.db.selectFrom('api_tokens').select('name').execute()).toHaveLength(2);
  });

  it('reads with READ, decides with MODERATE, configures with ADMIN, and nothing more', async () => {
    const read = await make('READ');
    const moderate = await make('MODERATE');
    const admin = await make('ADMIN');
    const held = await c.comment({ status: 'PREMOD' });

    // READ: every query its admin may make, no mutation.
    expect((await api.ok(`{ viewer { username role } }`, {}, read.secret)).viewer).toEqual({
      username: c.admin.user.username,
      role: 'ADMIN',
    });
    expect((await api.ok(LIST, {}, read.secret)).apiTokens).toHaveLength(3);
    // Not the admin's private replies feed: it reads as them, outside any scope.
    await api.ok(`mutation { makeRepliesFeed { user { id } } }`, {}, c.admin.token);
    const feed = `{ viewer { repliesFeedUrl } }`;
    expect((await api.ok(feed, {}, c.admin.token)).viewer.repliesFeedUrl).toEqual(
      expect.any(String),
    );
    expect((await api.ok(feed, {}, read.secret)).viewer.repliesFeedUrl).toBeNull();
    expect(codeOf(await api.request(DECIDE('approveComment'), { id: held.id }, read.secret))).toBe(
      'FORBIDDEN',
    );

    // MODERATE: a moderator's decisions, not an admin's settings.
    expect(codeOf(await api.request(LIST, {}, moderate.secret))).toBe('FORBIDDEN');
    const approved = await api.ok(DECIDE('approveComment'), { id: held.id }, moderate.secret);
    expect(approved.approveComment.comment.status).toBe('APPROVED');
    const settings = { input: { reportThreshold: 7 } };
    expect(codeOf(await api.request(SETTINGS, settings, moderate.secret))).toBe('FORBIDDEN');

    // ADMIN: settings too, told apart from its admin's in the audit log.
    const saved = await api.ok(SETTINGS, settings, admin.secret);
    expect(saved.updateSettings.settings.reportThreshold).toBe(7);
    const entry = (await listAuditLog(api.db, { action: 'SETTINGS_UPDATE' }, { first: 1 }))
      .edges[0];
    expect(entry?.node).toMatchObject({
      actorId: c.admin.user.id,
      actorName: `${c.admin.user.username} (API token “ADMIN token”)`,
    });
    // Not where the mail (and its reset links) goes, nor how staff sign in.
    for (const input of [{ smtpHost: 'smtp.attacker.example' }, { requireStaffTwoFactor: false }]) {
      const answer = await api.request(SETTINGS, { input }, admin.secret);
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'FORBIDDEN',
        field: Object.keys(input)[0],
      });
    }
    expect((await getSettings(api.db)).smtpHost).toBe('');
    // Nothing that mints people or keys able to sign in.
    for (const [query, variables] of [
      [
        `mutation ($id: ID!) { setUserRole(input: { userId: $id, role: ADMIN }) { user { role } } }`,
        { id: c.commenter.user.id },
      ],
      [
        `mutation ($s: ID!) { rotateSsoKey(input: { siteId: $s }) { site { id } } }`,
        { s: c.site.id },
      ],
      [
        `mutation { createSite(input: { name: "Mine", url: "https://mine.example", allowedOrigins: ["https://mine.example"] }) { site { id } } }`,
        {},
      ],
      [`mutation { inviteModerator(input: { email: "me@attacker.example" }) { user { id } } }`, {}],
    ] as const) {
      const answer = await api.request(query, variables, admin.secret);
      expect({ query, code: codeOf(answer) }).toEqual({ query, code: 'FORBIDDEN' });
    }
    expect((await findUserById(api.db, c.commenter.user.id))?.role).toBe('COMMENTER');

    // No story is made by a script's read, and no account's own data goes to it.
    const story = `query ($url: String!) { story(url: $url) { id } }`;
    const fresh = { url: 'https://site.example/never-opened' };
    expect((await api.ok(story, fresh, read.secret)).story).toBeNull();
    const own = `{ viewer { notificationSettings { onReply } sessions { id } recoveryCodesLeft ignoredUsers { id } } }`;
    expect((await api.ok(own, {}, read.secret)).viewer).toEqual({
      notificationSettings: null,
      sessions: null,
      recoveryCodesLeft: null,
      ignoredUsers: null,
    });
    expect((await api.ok(own, {}, c.admin.token)).viewer.sessions).toEqual(expect.any(Array));

    // None posts, reacts or changes an account.
    const { storyId } = { storyId: c.story.id };
    for (const [query, variables] of [
      [
        `mutation ($s: ID!) { createComment(input: { storyId: $s, body: "From a script" }) { comment { id } } }`,
        { s: storyId },
      ],
      [`mutation { signOutEverywhere { ok } }`, {}],
      [
        `mutation { updatePassword(input: { oldPassword: "x", newPassword: "y y y y y y" }) { user { id } } }`,
        {},
      ],
    ] as const) {
      const answer = await api.request(query, variables, admin.secret);
      expect({ query, code: codeOf(answer) }).toEqual({ query, code: 'FORBIDDEN' });
    }
    expect(
      await api.db
        .selectFrom('comments')
        .select('id')
        .where('body_source', '=', 'From a script')
        .execute(),
    ).toEqual([]);
  });

  it('stops working when revoked, when its admin steps down, and when erased', async () => {
    const token = await make('ADMIN');
    const who = `{ viewer { id } }`;
    expect((await api.ok(who, {}, token.secret)).viewer.id).toBe(c.admin.user.id);

    const unknown = await api.request(who, {}, `${API_TOKEN_PREFIX}not-a-token`);
    expect(codeOf(unknown)).toBe('TOKEN_INVALID');

    // Banned, suspended, or without the second factor the organization requires: refused
    // meanwhile, working again after.
    const setUser = (values: Record<string, unknown>) =>
      api.db.updateTable('users').set(values).where('id', '=', c.admin.user.id).execute();
    const works = async () => !(await api.request(who, {}, token.secret)).errors;
    await setUser({ banned: 1 });
    expect(await works()).toBe(false);
    await setUser({ banned: 0, suspended_until: '2999-01-01T00:00:00.000Z' });
    expect(await works()).toBe(false);
    await setUser({ suspended_until: null });
    await updateSettings(api.db, { requireStaffTwoFactor: true });
    expect(await works()).toBe(false);
    await updateSettings(api.db, { requireStaffTwoFactor: false });
    expect(await works()).toBe(true);

    const first = (await api.ok(REVOKE, { id: token.id }, c.admin.token)).revokeApiToken.apiToken;
    expect(first).toMatchObject({ id: token.id, secret: null, revokedAt: expect.any(String) });
    expect(codeOf(await api.request(who, {}, token.secret))).toBe('TOKEN_INVALID');
    // Revoking again changes nothing, and audits nothing more.
    const again = (await api.ok(REVOKE, { id: token.id }, c.admin.token)).revokeApiToken.apiToken;
    expect(again.revokedAt).toBe(first.revokedAt);
    const revocations = (await listAuditLog(api.db, {}, { first: 20 })).edges.filter(
      (e) => e.node.action === 'API_TOKEN_REVOKE',
    );
    expect(revocations).toHaveLength(1);

    // Erasing the admin's account deletes their tokens.
    const other = await make('READ', 'Other');
    const now = new Date();
    await api.db
      .updateTable('users')
      .set({ deletion_requested_at: now.toISOString() })
      .where('id', '=', c.admin.user.id)
      .execute();
    expect(await deleteAccount(api.db, c.admin.user.id, now)).toBeDefined();
    expect(codeOf(await api.request(who, {}, other.secret))).toBe('TOKEN_INVALID');
    expect(await api.db.selectFrom('api_tokens').selectAll().execute()).toEqual([]);
  });

  it('ends when its admin signs out everywhere, and for good when they step down', async () => {
    const token = await make('ADMIN');
    const who = `{ viewer { id } }`;
    await api.ok(`mutation { signOutEverywhere { ok } }`, {}, c.admin.token);
    expect(codeOf(await api.request(who, {}, token.secret))).toBe('TOKEN_INVALID');

    // A second admin steps the first down: their tokens are revoked, and stay so.
    const other = await c.member('other-admin', 'ADMIN');
    const session = await api.deps.tokens.sign({
      userId: c.admin.user.id,
      role: 'ADMIN',
      epoch: (await findUserById(api.db, c.admin.user.id))!.sessionEpoch,
    });
    const kept = await api.ok(CREATE, { input: { name: 'Kept', scope: 'READ' } }, session);
    const secret = kept.createApiToken.apiToken.secret as string;
    expect((await api.ok(who, {}, secret)).viewer.id).toBe(c.admin.user.id);
    const role = `mutation ($id: ID!, $role: Role!) { setUserRole(input: { userId: $id, role: $role }) { user { role } } }`;
    await api.ok(role, { id: c.admin.user.id, role: 'MODERATOR' }, other.token);
    await api.ok(role, { id: c.admin.user.id, role: 'ADMIN' }, other.token);
    expect(codeOf(await api.request(who, {}, secret))).toBe('TOKEN_INVALID');
    const listed = (await api.ok(LIST, {}, other.token)).apiTokens;
    expect(listed.every((t: { revokedAt: string | null }) => t.revokedAt !== null)).toBe(true);
  });

  it('ends its live updates once revoked, before a held comment shows', async () => {
    const token = await make('ADMIN');
    const live = await subscribeSse(
      api.yoga,
      `subscription ($s: ID!) { commentUpdated(storyId: $s) { id status bodySource } }`,
      { s: c.story.id },
      token.secret,
    );
    const first = await c.comment();
    api.deps.pubsub.publish('commentUpdated', c.story.id, {
      storyId: c.story.id,
      commentId: first.id,
    });
    expect((await live.next()).data).toMatchObject({ commentUpdated: { id: first.id } });
    await api.ok(REVOKE, { id: token.id }, c.admin.token);
    const held = await c.comment({ status: 'PREMOD', bodySource: 'Held for review' });
    api.deps.pubsub.publish('commentUpdated', c.story.id, {
      storyId: c.story.id,
      commentId: held.id,
    });
    const ended = await live.next();
    expect(ended.data ?? null).toBeNull();
    expect(ended.errors?.[0]?.extensions?.['code']).toBe('TOKEN_INVALID');
    expect(JSON.stringify(ended)).not.toContain('Held for review');
    live.close();
  });

  it('records its last use, at most every few minutes', async () => {
    const start = new Date('2026-11-26T10:00:00.000Z');
    api.setNow(start);
    const token = await make('READ');
    const lastUsed = async () =>
      (await api.ok(LIST, {}, c.admin.token)).apiTokens[0].lastUsedAt as string | null;
    await api.ok(`{ viewer { id } }`, {}, token.secret);
    expect(await lastUsed()).toBe(start.toISOString());
    api.setNow(new Date(start.getTime() + API_TOKEN_TOUCH_MS - 1000));
    await api.ok(`{ viewer { id } }`, {}, token.secret);
    expect(await lastUsed()).toBe(start.toISOString());
    const later = new Date(start.getTime() + API_TOKEN_TOUCH_MS + 1000);
    api.setNow(later);
    await api.ok(`{ viewer { id } }`, {}, token.secret);
    expect(await lastUsed()).toBe(later.toISOString());
  });
});
