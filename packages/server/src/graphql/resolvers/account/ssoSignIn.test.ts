import { testBox } from '../../../db/testFixtures';
import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { addSsoKey, createSite, revokeSsoKey, rotateSsoKey } from '../../../db/store/sites';
import { testDialects } from '../../../db/testDatabases';
import { SSO_KEY_ROTATION_OVERLAP_SECONDS } from '../../../defaults';
import { findOrCreateStory } from '../../../db/store/stories';
import { SITE_ORIGIN, useApi } from '../../testing/useApi';
import { codeOf } from './accountTestKit';
import { signHostToken } from '../../testing/signHostToken';

const SSO = `mutation ($input: SsoSignInInput!) {
  signInWithSso(input: $input) { token user { id username email emailVerified role } }
}`;
const HOST_USER = { id: 'host-42', email: 'ada@host.example', username: 'ada' };
const DAY_MS = 86_400_000;

/** Signs a token for {@link HOST_USER} as a host site does. */
const hostSign = (secret: string, at = new Date(), extra: JWTPayload = {}): Promise<string> =>
  signHostToken(secret, HOST_USER, at, extra);

describe.each(testDialects())('signInWithSso on %s', (dialect) => {
  const api = useApi(dialect);

  it('creates the host’s user on first sign-in, then updates the same user from the host', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const first = await api.ok(SSO, { input: { token: await hostSign(key.secret) } });
    expect(first.signInWithSso.user).toMatchObject({ username: 'ada', role: 'COMMENTER' });
    // Private fields resolve for the token's holder (the payload is answered to an anonymous caller).
    const viewer = await api.ok(
      `{ viewer { id email emailVerified } }`,
      {},
      first.signInWithSso.token,
    );
    expect(viewer.viewer).toEqual({
      id: first.signInWithSso.user.id,
      email: 'ada@host.example',
      emailVerified: true,
    });

    const renamed = await hostSign(key.secret, new Date(), {
      user: { ...HOST_USER, username: 'ada.l', email: 'ada.l@host.example' },
    });
    const second = await api.ok(SSO, { input: { token: renamed } });
    expect(second.signInWithSso.user).toMatchObject({
      id: first.signInWithSso.user.id,
      username: 'ada.l',
    });
    const row = await api.db
      .selectFrom('users')
      .selectAll()
      .where('sso_id', '=', 'host-42')
      .execute();
    expect(row.map((r) => [r.sso_site_id, r.email])).toEqual([[siteId, 'ada.l@host.example']]);
    // The host signs its reader in again on every page view: those are no devices to list.
    expect(await api.db.selectFrom('sessions').selectAll().execute()).toEqual([
      expect.objectContaining({
        user_id: (
          await api.db
            .selectFrom('users')
            .select('id')
            .where('role', '=', 'ADMIN')
            .executeTakeFirstOrThrow()
        ).id,
      }),
    ]);
  });

  it('shows the host’s badges beside the user, refreshed at each sign-in', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const BADGES = `mutation ($input: SsoSignInInput!) { signInWithSso(input: $input) { user { badges } } }`;
    const withBadges = await hostSign(key.secret, new Date(), {
      user: { ...HOST_USER, badges: ['Subscriber', ' Subscriber ', 'Founding member'] },
    });
    expect(
      (await api.ok(BADGES, { input: { token: withBadges } })).signInWithSso.user.badges,
    ).toEqual(['Subscriber', 'Founding member']);
    const lapsed = await hostSign(key.secret, new Date(), { user: { ...HOST_USER, badges: [] } });
    expect((await api.ok(BADGES, { input: { token: lapsed } })).signInWithSso.user.badges).toEqual(
      [],
    );
  });

  it('finds the signing site among several: the user belongs to that site', async () => {
    await api.install();
    const { site: other } = await createSite(
      api.db,
      {
        name: 'Other',
        url: 'https://other.example',
        allowedOrigins: ['https://other.example'],
      },
      testBox,
    );
    const key = await addSsoKey(api.db, other.id, testBox);
    await api.ok(SSO, { input: { token: await hostSign(key.secret) } });
    const user = await api.db
      .selectFrom('users')
      .select('sso_site_id')
      .where('sso_id', '=', 'host-42')
      .executeTakeFirstOrThrow();
    expect(user.sso_site_id).toBe(other.id);
  });

  it('binds an SSO account to its site: it posts, reacts and reports only on that site’s stories', async () => {
    const { siteId } = await api.install();
    const { site: other } = await createSite(
      api.db,
      {
        name: 'Other',
        url: 'https://other.example',
        allowedOrigins: ['https://other.example'],
      },
      testBox,
    );
    const key = await addSsoKey(api.db, other.id, testBox);
    const { token } = (await api.ok(SSO, { input: { token: await hostSign(key.secret) } }))
      .signInWithSso;
    const home = await findOrCreateStory(api.db, {
      siteId: other.id,
      url: 'https://other.example/a',
      title: 'Home',
    });
    const away = await findOrCreateStory(api.db, {
      siteId,
      url: `${SITE_ORIGIN}/a`,
      title: 'Away',
    });
    const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

    await api.ok(POST, { input: { storyId: home.story.id, body: 'At home.' } }, token);
    const posted = await api.request(
      POST,
      { input: { storyId: away.story.id, body: 'Elsewhere.' } },
      token,
    );
    expect(posted.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const reader = await api.signUp('reader');
    const theirs = await api.ok(
      POST,
      { input: { storyId: away.story.id, body: 'A comment on the first site.' } },
      reader.token,
    );
    const commentId = theirs.createComment.comment.id;
    const reacted = await api.request(
      `mutation ($id: ID!) { createReaction(input: { commentId: $id }) { comment { id } } }`,
      { id: commentId },
      token,
    );
    expect(reacted.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const reported = await api.request(
      `mutation ($id: ID!) { reportComment(input: { commentId: $id, reason: SPAM }) { comment { id } } }`,
      { id: commentId },
      token,
    );
    expect(reported.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses a token dated in the future, or living longer than the site allows', async () => {
    const { siteId, adminToken } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const now = Math.floor(Date.now() / 1000);
    const future = await hostSign(key.secret, new Date(), { iat: now + 3600, exp: now + 3900 });
    const dated = await api.request(SSO, { input: { token: future } });
    expect(dated.errors?.[0]?.extensions).toMatchObject({ code: 'TOKEN_INVALID', field: 'token' });
    expect(dated.errors?.[0]?.message).toContain('future');

    const weekLong = { iat: now - 5, exp: now + 7 * 86_400 };
    const long = await api.request(SSO, {
      input: { token: await hostSign(key.secret, new Date(), weekLong) },
    });
    expect(long.errors?.[0]?.extensions).toMatchObject({ code: 'TOKEN_INVALID', field: 'token' });
    expect(await api.db.selectFrom('users').select('id').execute()).toHaveLength(1); // the admin

    // The site's admin allows eight days: the same kind of token now signs in.
    await api.ok(
      `mutation ($input: UpdateSiteInput!) { updateSite(input: $input) { site { ssoTokenMaxLifetimeSeconds } } }`,
      { input: { siteId, ssoTokenMaxLifetimeSeconds: 8 * 86_400 } },
      adminToken,
    );
    await api.ok(SSO, {
      input: { token: await hostSign(key.secret, new Date(), { ...weekLong, jti: 'second' }) },
    });
  });

  it('exchanges a token once: a replay is refused, the transport retrying the same request is not', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const token = await hostSign(key.secret);
    const exchange = async (idempotencyKey?: string) => {
      const response = await api.yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
        },
        body: JSON.stringify({ query: SSO, variables: { input: { token } } }),
      });
      return (await response.json()) as { data?: any; errors?: any[] };
    };
    const first = await exchange('attempt-1');
    expect(first.errors).toBeUndefined();
    // The answer was lost; the transport sends the same request again.
    const retry = await exchange('attempt-1');
    expect(retry.data.signInWithSso.user.id).toBe(first.data.signInWithSso.user.id);
    // Someone else presenting the token lifted from the page.
    const replay = await exchange('another');
    expect(replay.errors?.[0]?.extensions).toMatchObject({ code: 'TOKEN_INVALID', field: 'token' });
    expect(replay.errors?.[0]?.message).toContain('already used');
    expect((await exchange()).errors?.[0]?.extensions?.code).toBe('TOKEN_INVALID');
  });

  it('lets an SSO reader end every session of theirs', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const first = (await api.ok(SSO, { input: { token: await hostSign(key.secret) } }))
      .signInWithSso.token;
    const second = (
      await api.ok(SSO, {
        input: { token: await hostSign(key.secret, new Date(), { jti: 'other-device' }) },
      })
    ).signInWithSso.token;
    await api.ok(`mutation { signOutEverywhere { ok } }`, {}, first);
    for (const token of [first, second]) {
      const answer = await api.request(`{ viewer { id } }`, {}, token);
      expect(codeOf(answer)).toBe('TOKEN_INVALID');
    }
    // The host signs them in again with a fresh token.
    await api.ok(SSO, {
      input: { token: await hostSign(key.secret, new Date(), { jti: 'after' }) },
    });
  });

  it('accepts a rotated-out key during its overlap, and refuses it after', async () => {
    const { siteId } = await api.install();
    const old = await addSsoKey(api.db, siteId, testBox);
    const current = await rotateSsoKey(api.db, siteId, testBox);
    expect((await api.request(SSO, { input: { token: await hostSign(old.secret) } })).errors).toBe(
      undefined,
    );

    const later = new Date(Date.now() + SSO_KEY_ROTATION_OVERLAP_SECONDS * 1000 + DAY_MS);
    api.setNow(later);
    const withOld = await api.request(SSO, { input: { token: await hostSign(old.secret, later) } });
    expect(codeOf(withOld)).toBe('TOKEN_INVALID');
    const withNew = await api.request(SSO, {
      input: { token: await hostSign(current.secret, later) },
    });
    expect(withNew.errors).toBe(undefined);
  });

  it('refuses a token signed with a revoked key: TOKEN_INVALID, nobody created', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    await revokeSsoKey(api.db, key.id);
    const answer = await api.request(SSO, { input: { token: await hostSign(key.secret) } });
    expect(codeOf(answer)).toBe('TOKEN_INVALID');
    expect(await api.db.selectFrom('users').select('id').execute()).toHaveLength(1); // the admin
  });

  it('answers TOKEN_EXPIRED for an expired token of a known key', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const answer = await api.request(SSO, {
      input: { token: await hostSign(key.secret, new Date(Date.now() - DAY_MS)) },
    });
    expect(codeOf(answer)).toBe('TOKEN_EXPIRED');
  });

  it.each([
    ['signed with an unknown secret', () => hostSign(randomBytes(32).toString('base64url'))],
    ['not a JWT', async () => 'not.a.jwt'],
  ])('answers TOKEN_INVALID for a token %s', async (_name, make) => {
    const { siteId } = await api.install();
    await addSsoKey(api.db, siteId, testBox);
    const answer = await api.request(SSO, { input: { token: await make() } });
    expect(codeOf(answer)).toBe('TOKEN_INVALID');
  });

  it.each([
    ['a user without an email', { user: { id: 'x', username: 'someone' } }],
    ['a username the rules refuse', { user: { ...HOST_USER, username: 'has spaces' } }],
    ['an email the rules refuse', { user: { ...HOST_USER, email: 'nope' } }],
  ])('answers INVALID_INPUT on field token for %s', async (_name, extra) => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const answer = await api.request(SSO, {
      input: { token: await hostSign(key.secret, new Date(), extra) },
    });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'token' });
  });

  it('answers INVALID_INPUT for an empty token', async () => {
    await api.install();
    const answer = await api.request(SSO, { input: { token: '  ' } });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'token' });
  });

  it('keeps an SSO user’s name and email with the host: FORBIDDEN to change them here', async () => {
    const { siteId } = await api.install();
    const key = await addSsoKey(api.db, siteId, testBox);
    const { signInWithSso } = await api.ok(SSO, { input: { token: await hostSign(key.secret) } });
    const answer = await api.request(
      `mutation { updateUsername(input: { username: "other" }) { user { username } } }`,
      {},
      signInWithSso.token,
    );
    expect(codeOf(answer)).toBe('FORBIDDEN');
  });
});
