import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/inTransaction';
import { countRows, seedBasics } from '../db/testFixtures';
import { testDialects, useTestDatabase } from '../db/testDatabases';
import { storyStatusCounts } from '../db/store/storyCounts';
import { createUser } from '../db/store/users';
import { readDisqus } from './formats/disqus';
import { readRemark42 } from './formats/remark42';
import { readWordPress } from './formats/wordpress';
import { importSite } from './importSite';
import type { ImportOptions, SourceItem } from './importSite';

const fixture = (name: string) => createReadStream(join(__dirname, 'fixtures', name));

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
      users: { created: 5, matched: 0 },
      comments: { imported: 8, already: 0 },
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
      { what: 'comment', id: '2011', line: 152, reason: 'its thread 8888 is not in the file' },
      { what: 'comment', id: '2012', line: 161, reason: 'its body is empty' },
    ]);
    expect(report.notes.map(({ id, reason }) => [id, reason])).toEqual([
      ['2007', 'its parent 2006 was skipped: imported at the top of its thread'],
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
    expect(counts.get(stories[2]!.id)).toEqual({ NONE: 4, REJECTED: 1 });
    expect(counts.get(stories[1]!.id)).toEqual({ NONE: 2, REJECTED: 1 });

    // Again: nothing new, and nothing twice.
    const tables = ['comments', 'comment_revisions', 'users', 'stories', 'import_sources'] as const;
    const before = await Promise.all(tables.map((table) => countRows(t.db, table)));
    const again = await run('disqus', readDisqus(fixture('disqus.xml')), { rewriteOrigins });
    expect(again).toMatchObject({
      stories: { created: 0, matched: 2 },
      users: { created: 0 },
      comments: { imported: 0, already: 8 },
    });
    expect(await Promise.all(tables.map((table) => countRows(t.db, table)))).toEqual(before);
    expect(await storyStatusCounts(t.db, [stories[2]!.id])).toEqual(
      new Map([[stories[2]!.id, { NONE: 4, REJECTED: 1 }]]),
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
    expect(partial).toBeLessThan(8);
    const resumed = await run('disqus', readDisqus(fixture('disqus.xml')), { rewriteOrigins });
    expect(resumed.comments).toEqual({ imported: 8 - partial, already: partial });
    const rows = await commentsByBody(t.db);
    expect(rows).toHaveLength(8);
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

  it('imports a Remark42 backup: tombstones keep replies in place, votes as counts', async () => {
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
    const tombstone = rows.find((row) => row.parent_id === first?.id);
    expect(tombstone).toMatchObject({ body_source: '', deleted_at: expect.any(String) });
    expect(rows.find((row) => row.parent_id === tombstone?.id)).toMatchObject({
      body_html: '<p>Reply to a deleted comment <em>still here</em></p>',
      downvote_count: 3,
      created_at: '2017-12-21T10:00:00.123Z',
    });
    const closed = await t.db
      .selectFrom('stories')
      .selectAll()
      .where('url', '=', 'https://news.example/closed-talk')
      .executeTakeFirstOrThrow();
    expect(closed).toMatchObject({ status: 'CLOSED', title: 'Closed talk' });
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
