import { seedBasics, testBox } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import {
  exportUserComments,
  listUsableSsoKeysBySite,
  listUserComments,
  withdrawTokens,
} from './accountQueries';
import { createComment } from './comments';
import type { CommentStatus } from '../schema';
import { addSsoKey, createSite, revokeSsoKey, rotateSsoKey } from './sites';
import { consumeToken, createToken } from './tokens';

describe.each(testDialects())('account queries on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  async function comment(
    storyId: string,
    authorId: string,
    minute: number,
    status: CommentStatus = 'NONE',
  ) {
    const at = new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
    const body = `at ${minute}`;
    const { comment: created } = await createComment(t.db, {
      storyId,
      authorId,
      bodySource: body,
      bodyHtml: `<p>${body}</p>`,
      status,
      createdAt: at,
    });
    return created;
  }

  it('lists a user’s visible comments newest first, page by page, and hidden ones on request', async () => {
    const { story, users } = await seedBasics(t.db);
    const [alice, bob] = users as [(typeof users)[0], (typeof users)[0]];
    const c1 = await comment(story.id, alice.id, 1);
    const held = await comment(story.id, alice.id, 2, 'PREMOD');
    const c3 = await comment(story.id, alice.id, 3, 'APPROVED');
    const rejected = await comment(story.id, alice.id, 4, 'REJECTED');
    await comment(story.id, bob.id, 5);

    const first = await listUserComments(t.db, { authorId: alice.id }, { first: 1 });
    expect(first.edges.map((e) => e.node.id)).toEqual([c3.id]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await listUserComments(
      t.db,
      { authorId: alice.id },
      { first: 5, after: first.pageInfo.endCursor },
    );
    expect(second.edges.map((e) => e.node.id)).toEqual([c1.id]);
    expect(second.pageInfo).toEqual({ hasNextPage: false, endCursor: second.edges[0]?.cursor });

    const all = await listUserComments(t.db, { authorId: alice.id, includeHidden: true }, {});
    expect(all.edges.map((e) => e.node.id)).toEqual([rejected.id, c3.id, held.id, c1.id]);
  });

  it('groups every site’s usable SSO keys, leaving out revoked and expired ones', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    const { site: other } = await createSite(
      t.db,
      {
        name: 'Other',
        url: 'https://other.example',
        allowedOrigins: ['https://other.example'],
      },
      testBox,
    );
    const revoked = await addSsoKey(t.db, other.id, testBox);
    await revokeSsoKey(t.db, revoked.id);
    const current = await rotateSsoKey(t.db, site.id, testBox, 60);

    const now = await listUsableSsoKeysBySite(t.db, testBox);
    // Both keys of the rotated site verify during the overlap; only the new one is current.
    const siteKeys = now.get(site.id) ?? [];
    expect(siteKeys).toHaveLength(2);
    expect(siteKeys.filter((k) => k.expiresAt === null).map((k) => k.secret)).toEqual([
      current.secret,
    ]);
    expect(now.get(other.id)).toHaveLength(1); // the site's first key, not the revoked one

    const later = await listUsableSsoKeysBySite(
      t.db,
      testBox,
      new Date(Date.now() + 120_000).toISOString(),
    );
    expect(later.get(site.id)?.map((k) => k.secret)).toEqual([current.secret]);
  });

  it('withdraws a user’s unused tokens of one purpose only', async () => {
    const { users } = await seedBasics(t.db, { userCount: 2 });
    const [alice, bob] = users as [(typeof users)[0], (typeof users)[0]];
    const old = await createToken(t.db, {
      purpose: 'CONFIRM_EMAIL',
      userId: alice.id,
      ttlSeconds: 60,
    });
    const reset = await createToken(t.db, {
      purpose: 'RESET_PASSWORD',
      userId: alice.id,
      ttlSeconds: 60,
    });
    const bobs = await createToken(t.db, {
      purpose: 'CONFIRM_EMAIL',
      userId: bob.id,
      ttlSeconds: 60,
    });

    expect(await withdrawTokens(t.db, alice.id, 'CONFIRM_EMAIL')).toBe(1);
    expect(await consumeToken(t.db, 'CONFIRM_EMAIL', old.token)).toEqual({
      ok: false,
      code: 'TOKEN_INVALID',
    });
    expect((await consumeToken(t.db, 'RESET_PASSWORD', reset.token)).ok).toBe(true);
    expect((await consumeToken(t.db, 'CONFIRM_EMAIL', bobs.token)).ok).toBe(true);
  });

  it('exports everything a user wrote, oldest first, with the story URL', async () => {
    const { story, users } = await seedBasics(t.db);
    const [alice, bob] = users as [(typeof users)[0], (typeof users)[0]];
    await comment(story.id, alice.id, 2, 'REJECTED');
    await comment(story.id, alice.id, 1);
    await comment(story.id, bob.id, 3);
    const exported = await exportUserComments(t.db, alice.id);
    expect(exported.map((c) => [c.body, c.status, c.storyUrl])).toEqual([
      ['at 1', 'NONE', 'https://news.example/a'],
      ['at 2', 'REJECTED', 'https://news.example/a'],
    ]);
  });
});
