import { deleteAccount } from '../db/store/accountDeletion';
import { deleteOwnComment } from '../db/store/comments';
import { getSettings, updateSettings } from '../db/store/organization';
import { findUserById } from '../db/store/users';
import { loggedPath } from '../runtime/createHttpServer';
import { ignoreUser } from '../db/store/userModeration';
import { testDialects } from '../db/testDatabases';
import { RATE_LIMITS } from '../defaults';
import { seedCommunity } from '../graphql/testing/seedCommunity';
import type { Community } from '../graphql/testing/seedCommunity';
import { PUBLIC_URL, useApi } from '../graphql/testing/useApi';
import { createFeeds } from './atomFeeds';
import { atomProblems } from './testing/atomProblems';

// The private feed of replies to one reader's comments: made and replaced by makeRepliesFeed,
// shown to that reader alone, holding only the published replies of others (never their own,
// nor those of users they ignore), valid Atom, kept private.
const MAKE = `mutation { makeRepliesFeed { user { id repliesFeedUrl } } }`;
const MINE = `{ viewer { repliesFeedUrl } }`;

describe.each(testDialects())('the replies feed on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });
  afterEach(() => jest.restoreAllMocks());

  const feeds = () =>
    createFeeds({ db: api.db, publicUrl: PUBLIC_URL, settings: () => getSettings(api.db) });
  const get = async (url: string) => (await feeds()(new URL(url)))!;
  const entryIds = (xml: string) =>
    [...xml.matchAll(/<entry>[\s\S]*?<id>([^<]*)<\/id>/g)].map(
      (m) => new URL(m[1]!).searchParams.get('commentID') ?? '',
    );
  const wait = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('holds the published replies of others to my comments, newest first', async () => {
    const mine = await c.comment();
    const reply = (author: Community['commenter'], input: Record<string, unknown> = {}) =>
      c.comment({ authorId: author.user.id, parentId: mine.id, ...input });
    const first = await reply(c.commenter);
    await wait();
    const second = await reply(c.moderator);
    await wait();
    // Left out: my own reply, a held one, a deleted one, one by a user I ignore, a reply to
    // someone else's comment, and replies to a comment of mine I deleted.
    await reply(c.target);
    await reply(c.commenter, { status: 'PREMOD' });
    const deleted = await reply(c.commenter);
    await deleteOwnComment(api.db, deleted.id, c.commenter.user.id);
    const pest = await c.member('pest');
    await ignoreUser(api.db, c.target.user.id, pest.user.id);
    await reply(pest);
    const theirs = await c.comment({ authorId: c.commenter.user.id });
    await c.comment({ authorId: c.moderator.user.id, parentId: theirs.id });
    const gone = await c.comment();
    await c.comment({ authorId: c.commenter.user.id, parentId: gone.id });
    await deleteOwnComment(api.db, gone.id, c.target.user.id);

    expect((await api.ok(MINE, {}, c.target.token)).viewer.repliesFeedUrl).toBeNull();
    const url = (await api.ok(MAKE, {}, c.target.token)).makeRepliesFeed.user.repliesFeedUrl;
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/feeds/replies/[A-Za-z0-9_-]{32}\\.atom$`));
    expect((await api.ok(MINE, {}, c.target.token)).viewer.repliesFeedUrl).toBe(url);

    const answer = await get(url);
    expect(answer.status).toBe(200);
    expect(atomProblems(answer.body)).toEqual([]);
    expect(entryIds(answer.body)).toEqual([second.id, first.id]);
    expect(answer.body).toContain('<title>Replies to target</title>');
    expect(answer.headers['cache-control']).toBe('private, max-age=60');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['x-content-type-options']).toBe('nosniff');

    // Read as its reader: whatever "anonymous reading" says.
    await updateSettings(api.db, { anonymousReading: false });
    expect((await get(url)).status).toBe(200);
  });

  it('shows the link to its reader alone, and a new link ends the old one', async () => {
    const url = (await api.ok(MAKE, {}, c.target.token)).makeRepliesFeed.user.repliesFeedUrl;
    const theirs = await api.ok(
      `query ($id: ID!) { user(id: $id) { repliesFeedUrl } }`,
      { id: c.target.user.id },
      c.admin.token,
    );
    expect(theirs.user.repliesFeedUrl).toBeNull();

    const next = (await api.ok(MAKE, {}, c.target.token)).makeRepliesFeed.user.repliesFeedUrl;
    expect(next).not.toBe(url);
    const old = await get(url);
    expect(old.status).toBe(404);
    expect(old.body).toMatch(/^NOT_FOUND: /);
    expect((await get(next)).status).toBe(200);
    expect((await get(`${PUBLIC_URL}/feeds/replies/never-made.atom`)).status).toBe(404);
    // Signed out: no link to make.
    const anonymous = await api.request(MAKE);
    expect(anonymous.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');

    // Signing out everywhere ends the link too: it reads as the account.
    const again = (await api.ok(MAKE, {}, c.target.token)).makeRepliesFeed.user.repliesFeedUrl;
    expect((await get(again)).status).toBe(200);
    await api.ok(`mutation { signOutEverywhere { ok } }`, {}, c.target.token);
    expect((await get(again)).status).toBe(404);
    const fresh = await api.deps.tokens.sign({
      userId: c.target.user.id,
      role: 'COMMENTER',
      epoch: (await findUserById(api.db, c.target.user.id))!.sessionEpoch,
    });
    expect((await api.ok(MINE, {}, fresh)).viewer.repliesFeedUrl).toBeNull();
    const next2 = (await api.ok(MAKE, {}, fresh)).makeRepliesFeed.user.repliesFeedUrl;

    // Erasing the account erases its feed.
    const now = new Date();
    await api.db
      .updateTable('users')
      .set({ deletion_requested_at: now.toISOString() })
      .where('id', '=', c.target.user.id)
      .execute();
    expect(await deleteAccount(api.db, c.target.user.id, now)).toBeDefined();
    expect((await get(next2)).status).toBe(404);
  });

  it('keeps its key out of the request log', () => {
    expect(loggedPath('/feeds/replies/AbC-123_x.atom')).toBe('/feeds/replies/[key].atom');
    expect(loggedPath('/feeds/site/s-1.atom')).toBe('/feeds/site/s-1.atom');
  });

  it('makes at most 10 links an hour', async () => {
    // One window throughout, however slow the run.
    jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-26T10:00:00.000Z'));
    const { limit } = RATE_LIMITS.repliesFeed;
    for (let i = 0; i < limit; i += 1) await api.ok(MAKE, {}, c.target.token);
    const refused = await api.request(MAKE, {}, c.target.token);
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('RATE_LIMITED');
    // The link made last still works.
    const url = (await api.ok(MINE, {}, c.target.token)).viewer.repliesFeedUrl;
    expect((await get(url)).status).toBe(200);
  });
});
