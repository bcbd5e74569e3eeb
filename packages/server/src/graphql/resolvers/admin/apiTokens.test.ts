import { listAuditLog } from '../../../db/store/auditLog';
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

    // ADMIN: settings too.
    const saved = await api.ok(SETTINGS, settings, admin.secret);
    expect(saved.updateSettings.settings.reportThreshold).toBe(7);

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

    // Demoted: refused; an admin again: works again.
    await api.db
      .updateTable('users')
      .set({ role: 'MODERATOR' })
      .where('id', '=', c.admin.user.id)
      .execute();
    expect(codeOf(await api.request(who, {}, token.secret))).toBe('TOKEN_INVALID');
    await api.db
      .updateTable('users')
      .set({ role: 'ADMIN' })
      .where('id', '=', c.admin.user.id)
      .execute();
    expect((await api.ok(who, {}, token.secret)).viewer.id).toBe(c.admin.user.id);

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
