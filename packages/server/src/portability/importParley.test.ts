import { Readable } from 'node:stream';
import { seedBasics, testBox } from '../db/testFixtures';
import { countRows } from '../db/testFixtures';
import { createTestDatabase, testDialects, useTestDatabase } from '../db/testDatabases';
import type { TestDatabase } from '../db/testDatabases';
import type { Db } from '../db/inTransaction';
import {
  createComment,
  deleteOwnComment,
  pinComment,
  setCommentStatus,
  setCommentTags,
} from '../db/store/comments';
import { setVote } from '../db/store/reactions';
import { createSite } from '../db/store/sites';
import { storyStatusCounts } from '../db/store/storyCounts';
import { findOrCreateStory } from '../db/store/stories';
import { createUser, upsertSsoUser } from '../db/store/users';
import { createGuest } from '../db/store/guests';
import { renderComment } from '../markdown/renderComment';
import { exportSite } from './exportSite';
import { importParley } from './importParley';

/** The export of `siteId` as text (as `parley export` writes it). */
async function exportText(db: Db, siteId: string): Promise<string> {
  const pieces: string[] = [];
  await exportSite(db, siteId, (piece) => void pieces.push(piece), {
    now: new Date('2026-11-27T12:00:00.000Z'),
  });
  return pieces.join('\n');
}

const openText = (text: string) => () => Readable.from([Buffer.from(text)]);

/** What the stores keep of each comment besides the export: its links and counters. */
const counters = (db: Db) =>
  db
    .selectFrom('comments')
    .select([
      'id',
      'parent_id',
      'parent_author_id',
      'reply_count',
      'reaction_count',
      'downvote_count',
      'best_rank',
    ])
    .orderBy('id')
    .execute();

/** An export without what differs between installs: the site, and when it was made. */
function strip(text: string): Record<string, unknown> {
  const { site: _site, exportedAt: _at, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
}

describe.each(testDialects())('importParley on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let empty: TestDatabase;
  beforeEach(async () => {
    empty = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await empty.close();
  });

  /** The site of the empty install, at the same origin. */
  async function emptySite() {
    const { site } = await createSite(
      empty.db,
      { name: 'Moved', url: 'https://news.example', allowedOrigins: ['https://news.example'] },
      testBox,
    );
    return site;
  }

  /** A site with what an export holds: threads, tombstones, votes, decisions, a pin, SSO. */
  async function richSite() {
    const { site, story, users } = await seedBasics(t.db, {
      userCount: 3,
      roles: ['COMMENTER', 'COMMENTER', 'MODERATOR'],
    });
    const [ann, bob, mod] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    const sso = await upsertSsoUser(t.db, {
      siteId: site.id,
      ssoId: 'host-1',
      email: 'host@example.com',
      username: 'host_reader',
    });
    const post = async (authorId: string, body: string, parentId?: string) =>
      (
        await createComment(t.db, {
          storyId: story.id,
          authorId,
          parentId,
          bodySource: body,
          bodyHtml: renderComment(body),
        })
      ).comment;
    const top = await post(ann.id, 'First, with a [link](https://example.org)');
    const reply = await post(bob.id, 'A *reply*', top.id);
    const deep = await post(sso.id, 'Deeper', reply.id);
    const gone = await post(bob.id, 'To be deleted', top.id);
    await post(ann.id, 'Under the deleted one', gone.id);
    await deleteOwnComment(t.db, gone.id, bob.id);
    const held = await post(bob.id, 'Held');
    await setCommentStatus(t.db, { commentId: held.id, status: 'REJECTED', moderatorId: mod.id });
    await setCommentStatus(t.db, { commentId: deep.id, status: 'APPROVED', moderatorId: mod.id });
    await setCommentTags(t.db, top.id, ['FEATURED']);
    await setVote(t.db, top.id, bob.id, 1);
    await setVote(t.db, top.id, sso.id, 1);
    await setVote(t.db, reply.id, ann.id, -1);
    await pinComment(t.db, story.id, top.id);
    const { story: second } = await findOrCreateStory(t.db, {
      siteId: site.id,
      url: 'https://news.example/b',
      title: 'B',
    });
    await createComment(t.db, {
      storyId: second.id,
      authorId: mod.id,
      bodySource: 'Staff note',
      bodyHtml: '<p>Staff note</p>',
    });
    return { site, story };
  }

  it('round-trips: export, import into an empty install, export again gives the same document', async () => {
    const { site } = await richSite();
    const first = await exportText(t.db, site.id);
    const target = await emptySite();
    const report = await importParley(empty.db, openText(first), {
      siteId: target.id,
      batchSize: 2,
      keepIdentities: true,
    });
    expect(report).toMatchObject({
      stories: { created: 2, matched: 0 },
      users: { created: 4, matched: 0 },
      comments: { imported: 7, already: 0 },
      skipped: [],
      notes: [],
    });
    const second = await exportText(empty.db, target.id);
    expect(strip(second)).toEqual(strip(first));
    // The counters are what the writes here would have made.
    const stories = await empty.db.selectFrom('stories').select('id').execute();
    const fresh = await storyStatusCounts(
      empty.db,
      stories.map((story) => story.id),
    );
    const before = await storyStatusCounts(
      t.db,
      stories.map((story) => story.id),
    );
    expect(fresh).toEqual(before);
    expect(await counters(empty.db)).toEqual(await counters(t.db));

    // Again: nothing new.
    const again = await importParley(empty.db, openText(first), {
      siteId: target.id,
      keepIdentities: true,
    });
    expect(again).toMatchObject({
      stories: { created: 0, matched: 2 },
      users: { created: 0, matched: 4 },
      comments: { imported: 0, already: 7 },
    });
    expect(await countRows(empty.db, 'reactions')).toBe(3);
    expect(await countRows(empty.db, 'moderation_decisions')).toBe(2);
  });

  it('brings guests back as guests: same name, same address, joined to no account, once', async () => {
    const { site, story } = await seedBasics(t.db, { userCount: 1 });
    const now = new Date('2026-11-20T10:00:00.000Z');
    const sam = await createGuest(t.db, {
      name: 'Sam Smith',
      email: 'sam@example.com',
      ip: '203.0.113.7',
      now,
    });
    await t.db.updateTable('users').set({ email_verified: 1 }).where('id', '=', sam.id).execute();
    const anon = await createGuest(t.db, { name: 'Sam Smith', email: null, ip: null, now });
    for (const [author, body] of [
      [sam.id, 'From a guest with an address'],
      [anon.id, 'From a guest without one'],
    ] as const) {
      await createComment(t.db, {
        storyId: story.id,
        authorId: author,
        bodySource: body,
        bodyHtml: renderComment(body),
      });
    }
    const first = await exportText(t.db, site.id);
    const exported = (JSON.parse(first) as { users: Record<string, unknown>[] }).users;
    expect(exported.filter((user) => user.guest === true).map((user) => user.username)).toEqual([
      'Sam Smith',
      'Sam Smith',
    ]);

    // The target has a member with the guest's address: a guest never becomes them.
    await createUser(empty.db, { username: 'sam', email: 'sam@example.com', emailVerified: true });
    const target = await emptySite();
    const report = await importParley(empty.db, openText(first), {
      siteId: target.id,
      keepIdentities: true,
    });
    expect(report).toMatchObject({ users: { created: 2, matched: 0 }, skipped: [], notes: [] });
    const guests = await empty.db
      .selectFrom('users')
      .select([
        'id',
        'username',
        'username_key',
        'email',
        'email_key',
        'email_verified',
        'guest_email_key',
      ])
      .where('guest', '=', 1)
      .orderBy('id')
      .execute();
    expect(guests).toEqual(
      [sam, anon]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((guest) => ({
          id: guest.id,
          username: 'Sam Smith',
          username_key: `guest:${guest.id}`,
          email: guest.id === sam.id ? 'sam@example.com' : `guest-${guest.id}@guest.invalid`,
          email_key: `guest:${guest.id}`,
          email_verified: guest.id === sam.id ? 1 : 0,
          guest_email_key: guest.id === sam.id ? 'sam@example.com' : null,
        })),
    );
    expect(strip(await exportText(empty.db, target.id))).toEqual(strip(first));
    // Again: matched by id, nothing new.
    const again = await importParley(empty.db, openText(first), {
      siteId: target.id,
      keepIdentities: true,
    });
    expect(again).toMatchObject({
      users: { created: 0, matched: 2 },
      comments: { imported: 0, already: 2 },
    });
  });

  it('finishes an import that stopped in the comments, linking replies written before their parent', async () => {
    const { site } = await richSite();
    const first = await exportText(t.db, site.id);
    const target = await emptySite();
    // The fourth read of the file (header, users, stories, comments) breaks half-way through
    // the comments, one comment a batch: some are written, some of them replies without their
    // parent yet.
    const cut = first.indexOf('"votes"') - 200;
    let reads = 0;
    const breaking = () => {
      reads += 1;
      if (reads !== 4) return Readable.from([Buffer.from(first)]);
      return Readable.from(
        (async function* () {
          for (let at = 0; at < cut; at += 64) {
            yield Buffer.from(first.slice(at, Math.min(at + 64, cut)));
            await new Promise((resolve) => setImmediate(resolve));
          }
          throw new Error('disk gone');
        })(),
      );
    };
    const options = { siteId: target.id, batchSize: 1, keepIdentities: true };
    await expect(importParley(empty.db, breaking, options)).rejects.toThrow();
    const partial = await countRows(empty.db, 'comments');
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(7);
    const resumed = await importParley(empty.db, openText(first), options);
    expect(resumed.comments).toEqual({ imported: 7 - partial, already: partial });
    expect(await counters(empty.db)).toEqual(await counters(t.db));
    expect(strip(await exportText(empty.db, target.id))).toEqual(strip(first));
  });

  it('treats the file as input: ids of others get new ones, bad fields are skipped, a dry run writes nothing', async () => {
    const { site } = await richSite();
    const document = JSON.parse(await exportText(t.db, site.id)) as Record<string, any>;
    const target = await emptySite();
    // An admin here whose id the file gives to someone else (ids are public).
    const admin = document.users.find((user: { username: string }) => user.username === 'user0');
    const { id: adminId } = await empty.db
      .insertInto('users')
      .values({
        id: admin.id,
        username: 'root',
        username_key: 'root',
        username_skeleton: 'root',
        email: 'root@example.com',
        email_key: 'root@example.com',
        password_hash: 'hash',
        role: 'ADMIN',
        notification_prefs: '{}',
        sso_site_id: null,
        sso_id: null,
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [top, ...rest] = document.comments as Record<string, unknown>[];
    document.comments = [
      { ...top, createdAt: 12 },
      { ...rest[0], deletedAt: undefined },
      ...rest.slice(1),
    ];
    // Story B pins a comment of story A.
    const storyB = document.stories.find((story: { url: string }) => story.url.endsWith('/b'));
    storyB.pinnedCommentId = rest.find(
      (comment) => comment.storyId !== storyB.id && comment.deletedAt === null,
    )!.id;
    const text = JSON.stringify(document);

    const dry = await importParley(empty.db, openText(text), { siteId: target.id, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(await countRows(empty.db, 'comments')).toBe(0);
    expect(await countRows(empty.db, 'users')).toBe(1);

    const report = await importParley(empty.db, openText(text), { siteId: target.id });
    expect(report.comments.imported).toBe(5);
    expect(report.skipped.map(({ what, reason }) => `${what}: ${reason}`)).toEqual(
      expect.arrayContaining([
        'comment: its fields are not ones Parley writes',
        expect.stringMatching(/^thread: its pinned comment .* is not one of its comments here$/),
      ]),
    );
    expect(report.notes.map(({ reason }) => reason)).toContainEqual(
      expect.stringMatching(/^its id is another account's here: imported as /),
    );
    // Nothing of the file is the admin's.
    expect(
      await empty.db.selectFrom('comments').select('id').where('author_id', '=', adminId).execute(),
    ).toEqual([]);
    expect(
      await empty.db
        .selectFrom('reactions')
        .select('user_id')
        .where('user_id', '=', adminId)
        .execute(),
    ).toEqual([]);
  });

  it('keeps a member’s account here, renames a taken username, and refuses other formats', async () => {
    const { site } = await richSite();
    const text = await exportText(t.db, site.id);
    const target = await emptySite();
    // user0's address is an account here already; user1's name is someone else's.
    const member = await createUser(empty.db, {
      username: 'ann_here',
      email: 'user0@example.com',
      passwordHash: 'hash',
    });
    await createUser(empty.db, {
      username: 'user1',
      email: 'other@example.com',
      passwordHash: 'h',
    });
    // The file says user0's address was confirmed.
    const document = JSON.parse(text) as { users: { email: string; emailVerified: boolean }[] };
    for (const user of document.users) user.emailVerified = true;
    const report = await importParley(empty.db, openText(JSON.stringify(document)), {
      siteId: target.id,
    });
    expect(report.users).toEqual({ created: 3, matched: 1 });
    expect(report.notes.map(({ reason }) => reason).sort()).toEqual([
      'imported as a commenter, not MODERATOR (--keep-identities keeps roles)',
      'the username user1 is taken here or not one Parley allows: imported as user1_2',
    ]);
    // Without --keep-identities: no role, no SSO identity from the file.
    const roles = await empty.db.selectFrom('users').select(['role', 'sso_id']).execute();
    expect(roles.every((row) => row.role === 'COMMENTER' && row.sso_id === null)).toBe(true);
    const first = await empty.db
      .selectFrom('comments')
      .select('author_id')
      .where('body_source', 'like', 'First%')
      .executeTakeFirstOrThrow();
    expect(first.author_id).toBe(member.id);

    await expect(
      importParley(empty.db, openText('{"format":"other","version":1}'), { siteId: target.id }),
    ).rejects.toThrow('This is not a Parley export: its "format" is "other"');
    await expect(
      importParley(empty.db, openText('{"format":"parley-export","version":2}'), {
        siteId: target.id,
      }),
    ).rejects.toThrow('This export is version 2; this server reads version 1.');
    await expect(
      importParley(empty.db, openText('{"format":"parley-export","version":1,"users":[{'), {
        siteId: target.id,
      }),
    ).rejects.toThrow(/^The file is not JSON as Parley exports it/);
  });
});
