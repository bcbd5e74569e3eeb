import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { seedBasics, testBox } from '../db/testFixtures';
import { testDialects, useTestDatabase } from '../db/testDatabases';
import { createComment, pinComment, setCommentStatus } from '../db/store/comments';
import { setVote } from '../db/store/reactions';
import { createSite } from '../db/store/sites';
import { findOrCreateStory } from '../db/store/stories';
import { createUser } from '../db/store/users';
import { exportSite } from './exportSite';

const schema = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'export.schema.json'), 'utf8'),
) as object;
const validate = addFormats(new Ajv({ allErrors: true, strict: true })).compile(schema);

/** The whole export as text, its pieces a line each (as `parley export` writes them). */
async function exportText(
  db: Parameters<typeof exportSite>[0],
  siteId: string,
  options?: Parameters<typeof exportSite>[3],
): Promise<string> {
  const pieces: string[] = [];
  await exportSite(db, siteId, (piece) => void pieces.push(piece), options);
  return pieces.join('\n');
}

describe.each(testDialects())('exportSite on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  it('writes one site’s data, valid against export.schema.json, in pages, without secrets', async () => {
    const { site, story, users } = await seedBasics(t.db, {
      userCount: 4,
      roles: ['COMMENTER', 'COMMENTER', 'MODERATOR', 'COMMENTER'],
    });
    const [ann, bob, mod, bystander] = users as [
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
    ];
    const post = async (authorId: string, body: string, parentId?: string) =>
      (
        await createComment(t.db, {
          storyId: story.id,
          authorId,
          parentId,
          bodySource: body,
          bodyHtml: `<p>${body}</p>`,
        })
      ).comment;
    const top = await post(ann.id, 'First');
    const reply = await post(bob.id, 'A reply', top.id);
    const third = await post(ann.id, 'Third');
    await setVote(t.db, top.id, bob.id, 1);
    await setVote(t.db, top.id, ann.id, 1);
    await setVote(t.db, third.id, bob.id, -1);
    await setCommentStatus(t.db, { commentId: third.id, status: 'REJECTED', moderatorId: mod.id });
    await setCommentStatus(t.db, { commentId: top.id, status: 'APPROVED', moderatorId: mod.id });
    // A second story, and an SSO reader of another site (their host id is not this site's).
    const { story: second } = await findOrCreateStory(t.db, {
      siteId: site.id,
      url: 'https://news.example/b',
      title: 'B',
    });
    await pinComment(t.db, story.id, top.id);
    // Another site's data stays out.
    const { site: other } = await createSite(
      t.db,
      { name: 'Other', url: 'https://other.example', allowedOrigins: ['https://other.example'] },
      testBox,
    );
    const { story: elsewhere } = await findOrCreateStory(t.db, {
      siteId: other.id,
      url: 'https://other.example/x',
      title: 'Elsewhere',
    });
    const stranger = await createUser(t.db, {
      username: 'stranger',
      email: 's@example.com',
      ssoSiteId: other.id,
      ssoId: 'host-7',
    });
    await createComment(t.db, {
      storyId: second.id,
      authorId: stranger.id,
      bodySource: 'visiting',
      bodyHtml: '<p>visiting</p>',
    });
    await createComment(t.db, {
      storyId: elsewhere.id,
      authorId: stranger.id,
      bodySource: 'not here',
      bodyHtml: '<p>not here</p>',
    });

    const now = new Date('2026-11-27T12:00:00.000Z');
    // One row a page: every list with rows spans pages.
    const text = await exportText(t.db, site.id, { now, pageRows: 1 });
    const document = JSON.parse(text) as Record<string, any>;
    expect(validate(document) ? [] : validate.errors).toEqual([]);
    expect(document).toMatchObject({
      format: 'parley-export',
      version: 1,
      exportedAt: now.toISOString(),
    });
    expect(document.site).toMatchObject({ id: site.id, allowedOrigins: ['https://news.example'] });
    expect(document.stories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: story.id, pinnedCommentId: top.id }),
        expect.objectContaining({ id: second.id, pinnedCommentId: null }),
      ]),
    );
    const ids = (list: { id: string }[]) => list.map((item) => item.id).sort();
    expect(document.comments).toHaveLength(4);
    expect(ids(document.comments)).toEqual(expect.arrayContaining([top.id, reply.id, third.id]));
    expect(document.comments.find((c: { id: string }) => c.id === reply.id)).toMatchObject({
      parentId: top.id,
      authorId: bob.id,
      bodySource: 'A reply',
      bodyHtml: '<p>A reply</p>',
    });
    // Authors, voters and the deciding moderator; not the bystander.
    expect(ids(document.users)).toEqual([ann.id, bob.id, mod.id, stranger.id].sort());
    expect(ids(document.users)).not.toContain(bystander.id);
    expect(document.users.find((u: { id: string }) => u.id === stranger.id).ssoId).toBeNull();
    expect(document.votes).toHaveLength(3);
    expect(document.votes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ commentId: third.id, userId: bob.id, value: -1 }),
      ]),
    );
    expect(document.decisions).toHaveLength(2);
    expect(document.decisions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ commentId: third.id, moderatorId: mod.id, status: 'REJECTED' }),
      ]),
    );
    expect(text).not.toMatch(/not here/);
    // The schema is strict: a field it does not name (a password hash, say) fails it.
    const leaky = { ...document, users: [{ ...document.users[0], passwordHash: 'x' }] };
    expect(validate(leaky)).toBe(false);
    // The same document whatever the page size.
    expect(JSON.parse(await exportText(t.db, site.id, { now }))).toEqual(document);
  });

  it('refuses an unknown site with NOT_FOUND before writing anything', async () => {
    const written: string[] = [];
    await expect(
      exportSite(t.db, 'no-such-site', (piece) => void written.push(piece)),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(written).toEqual([]);
  });

  it('reads one snapshot: a comment posted while it writes is not half in it', async () => {
    const { site, story, users } = await seedBasics(t.db, { userCount: 2 });
    for (const body of ['one', 'two', 'three']) {
      await createComment(t.db, {
        storyId: story.id,
        authorId: users[0]!.id,
        bodySource: body,
        bodyHtml: body,
      });
    }
    // A newcomer comments as the export starts its lists, before it reads any comment (a
    // second connection on PostgreSQL; SQLite in a test has one connection, which the export
    // holds till it ends). Read without a snapshot, the export would have four comments.
    let posted: Promise<unknown> | undefined;
    const pieces: string[] = [];
    await exportSite(
      t.db,
      site.id,
      (piece) => {
        pieces.push(piece);
        if (dialect === 'postgres' && posted === undefined && piece.includes('"stories"')) {
          posted = createUser(t.db, { username: 'latecomer', email: 'late@example.com' }).then(
            (late) =>
              createComment(t.db, {
                storyId: story.id,
                authorId: late.id,
                bodySource: 'late',
                bodyHtml: 'late',
              }),
          );
          return posted.then(() => undefined);
        }
      },
      { pageRows: 1 },
    );
    await posted;
    const document = JSON.parse(pieces.join('\n')) as { comments: unknown[]; users: unknown[] };
    expect(validate(document) ? [] : validate.errors).toEqual([]);
    expect(document.comments).toHaveLength(3);
    expect(document.users).toHaveLength(1);
  });
});
