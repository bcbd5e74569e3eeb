import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { join } from 'node:path';
import type { Db } from '../db/inTransaction';
import { countRows, seedBasics } from '../db/testFixtures';
import { createTestDatabase, testDialects, useTestDatabase } from '../db/testDatabases';
import { storyStatusCounts } from '../db/store/storyCounts';
import { createUser } from '../db/store/users';
import { readDisqus } from './formats/disqus';
import { readRemark42 } from './formats/remark42';
import { readWordPress } from './formats/wordpress';
import { importSite } from './importSite';
import type { ImportOptions, SourceItem } from './importSite';

const fixture = (name: string) => createReadStream(join(__dirname, 'fixtures', name));

/** A thread of a made-up source, at `https://news.example/<path>`. */
const sourceThread = (id: string, path: string) =>
  ({
    kind: 'thread',
    id,
    url: `https://news.example/${path}`,
    title: id,
    createdAt: null,
    closed: false,
    line: null,
  }) as const;

/** A comment of a made-up source, by a guest named Pat, its body its id. */
const sourceComment = (id: string, parentId: string | null, threadId = 't1') =>
  ({
    kind: 'comment',
    id,
    threadId,
    parentId,
    author: { id: null, name: 'Pat', email: null, vouched: false },
    html: `<p>${id}</p>`,
    createdAt: '2020-01-01T00:00:00Z',
    status: 'NONE',
    line: null,
  }) as const;

/** Every comment of the site's stories, by body, with what a test looks at. */
async function commentsByBody(db: Db) {
  const rows = await db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .innerJoin('stories', 'stories.id', 'comments.story_id')
    .select([
      'comments.id',
      'comments.parent_id',
      'comments.parent_author_id',
      'comments.author_id',
      'comments.body_source',
      'comments.body_html',
      'comments.status',
      'comments.reply_count',
      'comments.reaction_count',
      'comments.downvote_count',
      'comments.created_at',
      'comments.published_at',
      'comments.deleted_at',
      'users.username',
      'users.email',
      'users.password_hash',
      'stories.url',
    ])
    .execute();
  return rows;
}

describe.each(testDialects())('importSite on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  async function run(
    format: string,
    items: AsyncIterable<SourceItem>,
    options: Partial<ImportOptions> = {},
  ) {
    const site = await t.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
    return importSite(t.db, items, { siteId: site.id, format, ...options });
  }

  it('imports a Disqus export: threads, nesting in any order, authors, states, sanitized HTML', async () => {
    const { users } = await seedBasics(t.db, { userCount: 0 });
    expect(users).toHaveLength(0);
    const rewriteOrigins = new Map([['https://old.news.example', 'https://news.example']]);
    const report = await run('disqus', readDisqus(fixture('disqus.xml')), {
      rewriteOrigins,
      batchSize: 3,
    });
    expect(report).toMatchObject({
      stories: { created: 2, matched: 0 },
      users: { created: 6, matched: 0 },
      comments: { imported: 9, already: 0 },
    });
    expect(report.skipped).toEqual([
      { what: 'thread', id: '1003', line: 36, reason: 'deleted in Disqus' },
      {
        what: 'thread',
        id: '1004',
        line: 46,
        reason: expect.stringContaining('https://elsewhere.example is not a permitted origin'),
      },
      { what: 'comment', id: '2006', line: 105, reason: 'its date "yesterday" is not a date' },
      { what: 'comment', id: '2008', line: 124, reason: 'its thread 1003 was skipped' },
      { what: 'comment', id: '2012', line: 170, reason: 'its body is empty' },
      { what: 'comment', id: '2011', line: 152, reason: 'its thread 8888 is not in the file' },
    ]);
    expect(report.notes.map(({ id, reason }) => [id, reason])).toEqual([
      [
        '2007',
        'its parent 2006 was skipped (its date "yesterday" is not a date): imported at the top of its thread',
      ],
      ['2010', 'its parent 9999 is not in the file: imported at the top of its thread'],
    ]);

    const rows = await commentsByBody(t.db);
    const by = (text: string) => {
      const row = rows.find((each) => each.body_source.includes(text));
      if (row === undefined) throw new Error(`no comment with "${text}"`);
      return row;
    };
    const first = by('First!');
    // Markdown from the HTML, rendered as any comment: no script, no handler, a safe link.
    expect(first.body_source).toBe('First! **Bold** and [a link](https://example.org/x)');
    expect(first.body_html).toBe(
      '<p>First! <strong>Bold</strong> and <a href="https://example.org/x" rel="nofollow ugc noopener" target="_blank">a link</a></p>',
    );
    expect(first).toMatchObject({
      url: 'https://news.example/hello/',
      status: 'NONE',
      username: 'Alex',
      email: 'alex@example.com',
      password_hash: null,
      created_at: '2011-08-31T15:16:29.000Z',
      published_at: '2011-08-31T15:16:29.000Z',
      reply_count: 1,
    });
    // A remote image is a link to it, never an image in the thread.
    expect(by('A reply to Alex').body_html).toContain(
      '<a href="https://cdn.example/cat.png" rel="nofollow ugc noopener" target="_blank">a cat</a>',
    );
    expect(by('A reply to Alex')).toMatchObject({
      parent_id: first.id,
      parent_author_id: first.author_id,
      username: 'Guest_Person',
      reply_count: 1,
    });
    // The same address in another case is the same person; a reply read before its parent hangs
    // from it all the same.
    expect(by('A reply to the reply')).toMatchObject({
      parent_id: by('A reply to Alex').id,
      username: 'Alex',
      reply_count: 1,
    });
    expect(by('Replying to a later post')).toMatchObject({
      parent_id: by('A reply to the reply').id,
      username: 'Guest_Person',
    });
    expect(by('Buy cheap pills')).toMatchObject({ status: 'REJECTED', published_at: null });
    // A guest who typed a member's address is not that member, nor anyone who could claim it.
    expect(by('A guest typing')).toMatchObject({
      username: 'Not_Alex',
      email: expect.stringMatching(/@imported\.invalid$/),
    });
    expect(by('Deleted by its author')).toMatchObject({
      status: 'REJECTED',
      url: 'https://news.example/closed/',
    });
    expect(by('Reply to the bad date')).toMatchObject({ parent_id: null });
    const guest = await t.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'Someone')
      .executeTakeFirstOrThrow();
    expect(guest.email).toMatch(/@imported\.invalid$/);
    const stories = await t.db.selectFrom('stories').selectAll().orderBy('url').execute();
    expect(stories.map((story) => [story.url, story.title, story.status])).toEqual([
      ['https://news.example/a', 'A story', 'OPEN'],
      ['https://news.example/closed/', 'Closed & done', 'CLOSED'],
      ['https://news.example/hello/', 'Hello, world', 'OPEN'],
    ]);
    const counts = await storyStatusCounts(
      t.db,
      stories.map((story) => story.id),
    );
    expect(counts.get(stories[2]!.id)).toEqual({ NONE: 5, REJECTED: 1 });
    expect(counts.get(stories[1]!.id)).toEqual({ NONE: 2, REJECTED: 1 });

    // Again: nothing new, and nothing twice.
    const tables = ['comments', 'comment_revisions', 'users', 'stories', 'import_sources'] as const;
    const before = await Promise.all(tables.map((table) => countRows(t.db, table)));
    const again = await run('disqus', readDisqus(fixture('disqus.xml')), { rewriteOrigins });
    expect(again).toMatchObject({
      stories: { created: 0, matched: 2 },
      users: { created: 0 },
      comments: { imported: 0, already: 9 },
    });
    expect(await Promise.all(tables.map((table) => countRows(t.db, table)))).toEqual(before);
    expect(await storyStatusCounts(t.db, [stories[2]!.id])).toEqual(
      new Map([[stories[2]!.id, { NONE: 5, REJECTED: 1 }]]),
    );
  });

  it('matches authors to existing accounts by email, and resumes an import that stopped', async () => {
    await seedBasics(t.db, { userCount: 0 });
    const alex = await createUser(t.db, {
      username: 'alex_here',
      email: 'Alex@Example.com',
      passwordHash: 'hash',
    });
    const rewriteOrigins = new Map([['https://old.news.example', 'https://news.example']]);
    // The reader fails after a few comments: the batches before stay, the one under way does not.
    async function* stopsAfter(count: number) {
      let seen = 0;
      for await (const item of readDisqus(fixture('disqus.xml'))) {
        if (item.kind === 'comment' && ++seen > count) throw new Error('disk gone');
        yield item;
      }
    }
    await expect(run('disqus', stopsAfter(4), { rewriteOrigins, batchSize: 2 })).rejects.toThrow(
      'disk gone',
    );
    const partial = await countRows(t.db, 'comments');
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(9);
    const resumed = await run('disqus', readDisqus(fixture('disqus.xml')), { rewriteOrigins });
    expect(resumed.comments).toEqual({ imported: 9 - partial, already: partial });
    const rows = await commentsByBody(t.db);
    expect(rows).toHaveLength(9);
    expect(rows.filter((row) => row.username === 'alex_here')).toHaveLength(2);
    const reply = rows.find((row) => row.body_source.includes('Replying to a later post'));
    expect(reply?.parent_id).toBe(
      rows.find((row) => row.body_source.includes('A reply to the reply'))?.id,
    );
    const first = await t.db
      .selectFrom('comments')
      .select('author_id')
      .where('body_source', 'like', 'First!%')
      .executeTakeFirstOrThrow();
    expect(first.author_id).toBe(alex.id);
  });

  it('refreshes the planners’ statistics once it has written comments', async () => {
    // A fresh install: the planners have never seen a comment.
    const fresh = await createTestDatabase(dialect);
    try {
      const { site } = await seedBasics(fresh.db, { userCount: 0 });
      const rowsPlanned = async () =>
        dialect === 'postgres'
          ? Number(
              (
                await sql<{
                  n: number;
                }>`select reltuples as n from pg_class where relname = 'comments'`.execute(fresh.db)
              ).rows[0]?.n,
            )
          : // The rows an index over every comment counts (a partial index counts fewer).
            Math.max(
              0,
              ...(
                await sql<{
                  stat: string;
                }>`select stat from sqlite_stat1 where tbl = 'comments'`
                  .execute(fresh.db)
                  .catch(() => ({ rows: [] as { stat: string }[] }))
              ).rows.map((row) => Number.parseInt(row.stat, 10)),
            );
      expect(await rowsPlanned()).toBeLessThanOrEqual(0);
      await importSite(fresh.db, readWordPress(fixture('wordpress.xml')), {
        siteId: site.id,
        format: 'wordpress',
      });
      expect(await rowsPlanned()).toBe(await countRows(fresh.db, 'comments'));
    } finally {
      await fresh.close();
    }
  });

  it('writes nothing on a dry run, and reports what it would do', async () => {
    await seedBasics(t.db, { userCount: 0 });
    const report = await run('wordpress', readWordPress(fixture('wordpress.xml')), {
      dryRun: true,
    });
    expect(report).toMatchObject({ dryRun: true, comments: { imported: 5 } });
    expect(await countRows(t.db, 'comments')).toBe(0);
    expect(await countRows(t.db, 'import_sources')).toBe(0);
    expect(await countRows(t.db, 'stories')).toBe(1);
  });

  it('imports a WordPress export: comments only, statuses, paragraphs, pingbacks skipped', async () => {
    await seedBasics(t.db, { userCount: 0 });
    const report = await run('wordpress', readWordPress(fixture('wordpress.xml')));
    expect(report).toMatchObject({
      stories: { created: 2 },
      users: { created: 4 },
      comments: { imported: 5 },
    });
    expect(report.skipped.map(({ id, reason }) => [id, reason])).toEqual([
      ['16', 'a pingback, not a comment'],
      ['18', 'its date "" is not a date'],
    ]);
    const rows = await commentsByBody(t.db);
    const by = (text: string) => rows.find((row) => row.body_source.includes(text));
    const first = by('The first comment.');
    expect(first).toMatchObject({
      username: 'Admin_Person',
      email: 'admin@news.example',
      created_at: '2010-08-18T14:00:00.000Z',
      url: 'https://news.example/2010/07/do-you-rp/',
      reply_count: 1,
    });
    expect(by('replying to 13')).toMatchObject({
      parent_id: first?.id,
      body_html:
        '<p>I’m replying to 13.<br />\nSecond line.</p>\n<p>New paragraph with <strong>bold</strong> and <em>emphasis</em>.</p>',
      created_at: '2010-08-18T15:19:14.000Z',
    });
    // Not an address: a placeholder; held → pending; trashed → rejected.
    expect(by('Held for moderation.')).toMatchObject({
      status: 'PREMOD',
      email: expect.stringMatching(/@imported\.invalid$/),
      published_at: null,
    });
    expect(by('Trashed comment')).toMatchObject({ status: 'REJECTED' });
    // XML-escaped in the file, a script in what WordPress stored: gone, with its text.
    expect(by('Closing remarks')).toMatchObject({
      body_html: '<p>Closing remarks</p>',
      username: 'Admin_Person',
      url: 'https://news.example/closed/',
    });
  });

  it('imports a Remark42 backup: tombstones keep replies in place, votes by their voters', async () => {
    await seedBasics(t.db, { userCount: 0 });
    const report = await run('remark42', readRemark42(fixture('remark42.jsonl')));
    expect(report).toMatchObject({
      stories: { created: 2 },
      comments: { imported: 4 },
    });
    expect(report.skipped.map(({ id, line, reason }) => [id, line, reason])).toEqual([
      ['r5', 6, 'its date "" is not a date'],
      ['r6', 7, 'it has no locator.url'],
    ]);
    const rows = await commentsByBody(t.db);
    const first = rows.find((row) => row.body_source === 'some text, [link](http://radio-t.com)');
    expect(first).toMatchObject({
      email: 'gh@example.com',
      username: 'Git_Hubber',
      reaction_count: 2,
      downvote_count: 1,
      created_at: '2017-12-20T21:18:22.000Z',
      // The tombstone is not a visible reply.
      reply_count: 0,
    });
    // Votes that name their voters are theirs: a row each, the counts from the rows.
    const votes = await t.db
      .selectFrom('reactions')
      .innerJoin('users', 'users.id', 'reactions.user_id')
      .select(['users.username', 'reactions.value', 'reactions.comment_id'])
      .orderBy('users.username')
      .execute();
    expect(votes.map(({ username, value }) => [username, value])).toEqual([
      ['anonymous_2', -1],
      ['github_ddd', 1],
      ['google_ccc', 1],
    ]);
    expect(new Set(votes.map((vote) => vote.comment_id))).toEqual(new Set([first?.id]));
    const tombstone = rows.find((row) => row.parent_id === first?.id);
    expect(tombstone).toMatchObject({ body_source: '', deleted_at: expect.any(String) });
    expect(rows.find((row) => row.parent_id === tombstone?.id)).toMatchObject({
      body_html: '<p>Reply to a deleted comment <em>still here</em></p>',
      // A score names no voter: not imported.
      downvote_count: 0,
      created_at: '2017-12-21T10:00:00.123Z',
    });
    const closed = await t.db
      .selectFrom('stories')
      .selectAll()
      .where('url', '=', 'https://news.example/closed-talk')
      .executeTakeFirstOrThrow();
    expect(closed).toMatchObject({ status: 'CLOSED', title: 'Closed talk' });
  });

  it('keeps chains under a missing parent, waits for late threads, and reports every repeat', async () => {
    await seedBasics(t.db, { userCount: 0 });
    async function* items(): AsyncGenerator<SourceItem> {
      yield sourceThread('t1', 'one');
      // b answers a, which answers "gone", which never comes: a goes to the top, b stays under a.
      yield sourceComment('b', 'a');
      yield sourceComment('a', 'gone');
      // The same id twice while the first still waits for its parent.
      yield sourceComment('b', 'a');
      // A reply to a comment the reader skipped (a pingback, say).
      yield {
        kind: 'skip',
        what: 'comment',
        id: 'ping',
        line: 7,
        reason: 'a pingback, not a comment',
      };
      yield sourceComment('c', 'ping');
      // A comment before its thread.
      yield sourceComment('early', null, 't2');
      yield sourceThread('t2', 'two');
    }
    const report = await run('test', items(), { batchSize: 2 });
    expect(report.comments).toEqual({ imported: 4, already: 0 });
    expect(report.skipped.map(({ id, reason }) => [id, reason])).toEqual([
      ['b', 'the file has this id twice'],
      ['ping', 'a pingback, not a comment'],
    ]);
    expect(report.notes.map(({ id, reason }) => [id, reason])).toEqual([
      [
        'c',
        'its parent ping was skipped (a pingback, not a comment): imported at the top of its thread',
      ],
      ['a', 'its parent gone is not in the file: imported at the top of its thread'],
    ]);
    const rows = await commentsByBody(t.db);
    const id = (body: string) => rows.find((row) => row.body_source === body)?.id;
    expect(rows.find((row) => row.body_source === 'b')?.parent_id).toBe(id('a'));
    expect(rows.find((row) => row.body_source === 'a')).toMatchObject({
      parent_id: null,
      reply_count: 1,
    });
    expect(rows.find((row) => row.body_source === 'early')?.url).toBe('https://news.example/two');
  });

  it('hangs the replies of a later file from their parents of an earlier one', async () => {
    await seedBasics(t.db, { userCount: 0 });
    const thread = sourceThread('t1', 'one');
    async function* first(): AsyncGenerator<SourceItem> {
      yield thread;
      yield sourceComment('old', null);
    }
    async function* second(): AsyncGenerator<SourceItem> {
      yield thread;
      yield sourceComment('new', 'old');
    }
    await run('test', first());
    const report = await run('test', second());
    expect(report.notes).toEqual([]);
    const rows = await commentsByBody(t.db);
    const old = rows.find((row) => row.body_source === 'old');
    expect(rows.find((row) => row.body_source === 'new')?.parent_id).toBe(old?.id);
    expect(old?.reply_count).toBe(1);
  });

  it('skips WordPress posts readers never saw, with their comments', async () => {
    await seedBasics(t.db, { userCount: 0 });
    const xml = `<?xml version="1.0"?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.1/"><channel>
  <item><link>https://news.example/draft</link><wp:post_id>1</wp:post_id><wp:status>draft</wp:status>
    <wp:comment><wp:comment_id>10</wp:comment_id><wp:comment_content>Secret</wp:comment_content>
      <wp:comment_date_gmt>2020-01-01 00:00:00</wp:comment_date_gmt><wp:comment_approved>1</wp:comment_approved></wp:comment></item>
  <item><link>https://news.example/locked</link><wp:post_id>2</wp:post_id><wp:status>publish</wp:status><wp:post_password>pw</wp:post_password>
    <wp:comment><wp:comment_id>11</wp:comment_id><wp:comment_content>Locked</wp:comment_content>
      <wp:comment_date_gmt>2020-01-01 00:00:00</wp:comment_date_gmt><wp:comment_approved>1</wp:comment_approved></wp:comment></item>
</channel></rss>`;
    const report = await run('wordpress', readWordPress(Readable.from([Buffer.from(xml)])));
    expect(report.comments.imported).toBe(0);
    expect(report.skipped.map(({ id, reason }) => [id, reason])).toEqual([
      ['1', 'its post is not public in WordPress (status "draft")'],
      ['10', 'its post was skipped (its post is not public in WordPress (status "draft"))'],
      ['2', 'its post is password-protected in WordPress'],
      ['11', 'its post was skipped (its post is password-protected in WordPress)'],
    ]);
    expect(await countRows(t.db, 'comments')).toBe(0);
  });

  it('stops at a malformed file with its line, keeping the batches before it', async () => {
    await seedBasics(t.db, { userCount: 0 });
    await expect(run('disqus', readDisqus(fixture('disqus-malformed.xml')))).rejects.toThrow(
      /^The file is not well-formed XML at line 11, column \d+: /,
    );
    await expect(
      run('remark42', readRemark42(fixture('remark42-malformed.jsonl'))),
    ).rejects.toThrow(/^Line 3 is not JSON/);
    await expect(run('disqus', readDisqus(fixture('wordpress.xml')))).rejects.toThrow(
      'This is not a Disqus export: it starts with <rss>, where <disqus> was expected.',
    );
    expect(await countRows(t.db, 'comments')).toBe(0);
  });
});
