import { moderationQueue } from '../../db/store/commentQueries';
import {
  createComment,
  deleteOwnComment,
  editComment,
  setCommentStatus,
  setCommentTags,
} from '../../db/store/comments';
import { addReaction, addReport } from '../../db/store/reactions';
import { RATE_LIMITS } from '../../defaults';
import { createMemoryRateLimitStore } from '../../rateLimit/createMemoryRateLimitStore';
import { createRateLimiter } from '../../rateLimit/createRateLimiter';
import { testDialects } from '../../db/testDatabases';
import { SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';

const STORY = `query ($url: String!) { story(url: $url) { id url status commentCount } }`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) {
    comment { id body status replyCount bodySource heldBecause author { username } parent { id } }
  }
}`;
const THREAD = `query ($id: ID!) {
  story(id: $id) { commentCount comments { edges { node { id body replyCount } } } }
}`;

/** Posts as the holder of `token` on `storyId` (a reply under `parentId`); resolves the id. */
const poster =
  (api: Api, storyId: string) =>
  async (body: string, token: string, parentId?: string): Promise<string> =>
    (await api.ok(POST, { input: { storyId, body, parentId } }, token)).createComment.comment.id;

async function setup(api: Api) {
  const admin = await api.install();
  const reader = await api.signUp('reader');
  const writer = await api.signUp('writer');
  const { story } = await api.ok(STORY, { url: `${SITE_ORIGIN}/2026/article#comments` });
  return { admin, reader, writer, storyId: story.id as string };
}

async function setSettings(api: Api, settings: Record<string, unknown>) {
  await api.db
    .updateTable('organization')
    .set({ settings: JSON.stringify(settings) })
    .execute();
}

const REPORT = `mutation ($input: ReportCommentInput!) { reportComment(input: $input) { comment { status } } }`;

const codeOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.code;

describe.each(testDialects())('comments on %s', (dialect) => {
  const api = useApi(dialect);

  describe('stories', () => {
    it('creates a story on first use from a permitted origin, without fragment or tracking ids', async () => {
      await api.install();
      const url = `${SITE_ORIGIN}/a?p=1#comments`;
      const first = await api.ok(STORY, { url });
      const again = await api.ok(STORY, { url: `${SITE_ORIGIN}/a?utm_source=news&p=1&fbclid=x` });
      expect(first.story).toMatchObject({
        url: `${SITE_ORIGIN}/a?p=1`,
        status: 'OPEN',
        commentCount: 0,
      });
      expect(again.story.id).toBe(first.story.id);
    });

    it.each([
      ['https://elsewhere.example/a', 'ORIGIN_NOT_PERMITTED'],
      ['javascript:alert(1)', 'INVALID_INPUT'],
      ['not a url', 'INVALID_INPUT'],
    ])('refuses %s with %s', async (url, code) => {
      await api.install();
      expect(codeOf(await api.request(STORY, { url }))).toBe(code);
    });

    it('keeps threads from signed-out readers when anonymous reading is off; counts stay public', async () => {
      const { writer, storyId } = await setup(api);
      await api.ok(POST, { input: { storyId, body: 'Members only' } }, writer.token);
      await setSettings(api, { anonymousReading: false });
      const url = `${SITE_ORIGIN}/2026/article`;
      expect(codeOf(await api.request(STORY, { url }))).toBe('UNAUTHENTICATED');
      expect(codeOf(await api.request(THREAD, { id: storyId }))).toBe('UNAUTHENTICATED');
      expect((await api.ok(THREAD, { id: storyId }, writer.token)).story.commentCount).toBe(1);
      const counts = await api.ok(`query ($urls: [String!]!) { commentCounts(urls: $urls) }`, {
        urls: [url],
      });
      expect(counts.commentCounts).toEqual([1]);
    });

    it('limits how many new stories one address creates; existing ones stay readable', async () => {
      await api.install();
      // The real limiter with a limit of 2 new stories, rather than 300 of them.
      api.deps.rateLimiter = createRateLimiter({
        store: createMemoryRateLimitStore(),
        limits: { ...RATE_LIMITS, storyCreate: { limit: 2, windowSeconds: 3600 } },
      });
      await api.ok(STORY, { url: `${SITE_ORIGIN}/one` });
      await api.ok(STORY, { url: `${SITE_ORIGIN}/two` });
      const third = await api.request(STORY, { url: `${SITE_ORIGIN}/three` });
      expect(third.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await api.ok(STORY, { url: `${SITE_ORIGIN}/one` })).story.url).toBe(
        `${SITE_ORIGIN}/one`,
      );
      expect(await api.db.selectFrom('stories').select('id').execute()).toHaveLength(2);
    });

    it('says NOT_INSTALLED before install', async () => {
      expect(codeOf(await api.request(STORY, { url: `${SITE_ORIGIN}/a` }))).toBe('NOT_INSTALLED');
    });

    it('counts comments for many URLs without creating stories', async () => {
      const { writer, storyId } = await setup(api);
      await api.ok(POST, { input: { storyId, body: 'One' } }, writer.token);
      const data = await api.ok(`query ($urls: [String!]!) { commentCounts(urls: $urls) }`, {
        urls: [`${SITE_ORIGIN}/2026/article`, `${SITE_ORIGIN}/never-seen`, 'junk'],
      });
      expect(data.commentCounts).toEqual([1, 0, 0]);
      expect(await api.db.selectFrom('stories').select('id').execute()).toHaveLength(1);
    });
  });

  describe('tombstones', () => {
    const TREE = `query ($id: ID!) {
      story(id: $id) { comments { edges { node {
        id body removed status author { username }
        replies { edges { node { id body removed } } }
      } } } }
    }`;
    const REJECT = `mutation ($id: ID!) { rejectComment(input: { commentId: $id }) { comment { id } } }`;

    it('keeps a removed comment with replies as an empty tombstone, and drops one without', async () => {
      const { admin, reader, writer, storyId } = await setup(api);
      const post = poster(api, storyId);
      const answered = await post('Answered', writer.token);
      await post('A reply', reader.token, answered);
      const lonely = await post('Lonely', writer.token);
      await api.ok(REJECT, { id: answered }, admin.adminToken);
      await api.ok(REJECT, { id: lonely }, admin.adminToken);

      const { story } = await api.ok(TREE, { id: storyId }, reader.token);
      expect(story.comments.edges).toHaveLength(1);
      expect(story.comments.edges[0].node).toMatchObject({
        id: answered,
        body: '',
        removed: true,
        // Nothing says why it went.
        status: 'NONE',
        author: null,
        replies: { edges: [{ node: { body: '<p>A reply</p>', removed: false } }] },
      });
      // Moderators still see who wrote it and what.
      const moderated = await api.ok(TREE, { id: storyId }, admin.adminToken);
      expect(moderated.story.comments.edges[0].node).toMatchObject({
        body: '<p>Answered</p>',
        status: 'REJECTED',
        author: { username: 'writer' },
      });
      // Its author learns that it was rejected.
      const own = await api.ok(TREE, { id: storyId }, writer.token);
      expect(own.story.comments.edges[0].node).toMatchObject({ status: 'REJECTED' });
      // An erased comment (its author's account deleted) cannot be opened by id either.
      const erased = await post('Erased later', writer.token);
      await api.db
        .updateTable('comments')
        .set({ deleted_at: '2026-01-01T00:00:00.000Z' })
        .where('id', '=', erased)
        .execute();
      const direct = await api.request(
        `query ($id: ID!) { comment(id: $id) { id body } }`,
        { id: erased },
        reader.token,
      );
      expect(direct.data?.comment ?? null).toBeNull();
    });
  });

  describe('posting', () => {
    it('publishes a comment rendered to safe HTML, and a reply that counts', async () => {
      const { writer, reader, storyId } = await setup(api);
      const body = 'Hello **world** <script>alert(1)</script> https://example.com';
      const { createComment } = await api.ok(POST, { input: { storyId, body } }, writer.token);
      expect(createComment.comment).toMatchObject({
        status: 'NONE',
        author: { username: 'writer' },
      });
      expect(createComment.comment.body).toContain('<strong>world</strong>');
      expect(createComment.comment.body).toContain('&lt;script&gt;');
      expect(createComment.comment.body).toContain('rel="nofollow ugc noopener"');
      expect(createComment.comment.bodySource).toBe(body);
      const reply = await api.ok(
        POST,
        { input: { storyId, body: 'Agreed', parentId: createComment.comment.id } },
        reader.token,
      );
      expect(reply.createComment.comment.parent.id).toBe(createComment.comment.id);
      expect(reply.createComment.comment.bodySource).toBe('Agreed');
      const thread = await api.ok(THREAD, { id: storyId });
      expect(thread.story.commentCount).toBe(2);
      expect(thread.story.comments.edges).toHaveLength(1); // top level only
      expect(thread.story.comments.edges[0].node.replyCount).toBe(1);
    });

    it('shows the source only to the author and moderators', async () => {
      const { writer, reader, admin, storyId } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: '*hi*' } },
        writer.token,
      );
      const query = `query ($id: ID!) { comment(id: $id) { bodySource heldBecause } }`;
      const asReader = await api.ok(query, { id: createComment.comment.id }, reader.token);
      const asAdmin = await api.ok(query, { id: createComment.comment.id }, admin.adminToken);
      expect(asReader.comment).toEqual({ bodySource: null, heldBecause: null });
      expect(asAdmin.comment).toEqual({ bodySource: '*hi*', heldBecause: [] });
    });

    it('answers a retried post with the first comment: by clientMutationId or Idempotency-Key', async () => {
      const { writer, storyId } = await setup(api);
      const input = { storyId, body: 'Once', clientMutationId: 'cm-1' };
      const a = await api.ok(POST, { input }, writer.token);
      const b = await api.ok(POST, { input }, writer.token);
      expect(b.createComment.comment.id).toBe(a.createComment.comment.id);
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${writer.token}`,
        'idempotency-key': 'key-2',
      };
      const send = () =>
        Promise.resolve(
          api.yoga.fetch('http://test/graphql', {
            method: 'POST',
            headers,
            body: JSON.stringify({
              query: POST,
              variables: { input: { storyId, body: 'Twice?' } },
            }),
          }),
        ).then((r) => r.json());
      const [c, d] = [await send(), await send()];
      expect(d.data.createComment.comment.id).toBe(c.data.createComment.comment.id);
      expect(await api.db.selectFrom('comments').select('id').execute()).toHaveLength(2);
    });

    it('answers a retry with the first comment also when a rule refuses it now', async () => {
      const { writer, storyId } = await setup(api);
      const input = { storyId, body: 'Well darn', clientMutationId: 'cm-rule' };
      const first = await api.ok(POST, { input }, writer.token);
      await setSettings(api, { bannedWords: ['darn'] });
      const retry = await api.ok(POST, { input }, writer.token);
      expect(retry.createComment.comment.id).toBe(first.createComment.comment.id);
      // Not a retry: the rule refuses it, and nothing is stored.
      const fresh = await api.request(
        POST,
        { input: { ...input, clientMutationId: 'cm-new' } },
        writer.token,
      );
      expect(codeOf(fresh)).toBe('BANNED_WORD');
      expect(await api.db.selectFrom('comments').select('id').execute()).toHaveLength(1);
    });

    it.each([
      ['signed out', {}, 'UNAUTHENTICATED'],
      ['empty', { body: '   ' }, 'COMMENT_EMPTY'],
      ['too long', { body: 'x'.repeat(5001) }, 'COMMENT_TOO_LONG'],
    ])('refuses a post %s with %s and stores nothing', async (name, change, code) => {
      const { writer, storyId } = await setup(api);
      const token = name === 'signed out' ? null : writer.token;
      const answer = await api.request(
        POST,
        { input: { storyId, body: 'Fine', ...change } },
        token,
      );
      expect(codeOf(answer)).toBe(code);
      expect(await api.db.selectFrom('comments').select('id').execute()).toHaveLength(0);
    });

    it('refuses a banned word with BANNED_WORD on the body, storing nothing', async () => {
      const { writer, storyId } = await setup(api);
      await setSettings(api, { bannedWords: ['darn'] });
      const answer = await api.request(
        POST,
        { input: { storyId, body: 'Well **DARN** it' } },
        writer.token,
      );
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'BANNED_WORD', field: 'body' });
      expect(await api.db.selectFrom('comments').select('id').execute()).toHaveLength(0);
    });

    it('refuses closed stories, banned and suspended authors', async () => {
      const { writer, storyId, admin } = await setup(api);
      await api.db
        .updateTable('users')
        .set({ banned: 1 })
        .where('id', '=', writer.userId)
        .execute();
      expect(codeOf(await api.request(POST, { input: { storyId, body: 'x' } }, writer.token))).toBe(
        'USER_BANNED',
      );
      const until = new Date(Date.now() + 3_600_000).toISOString();
      await api.db
        .updateTable('users')
        .set({ banned: 0, suspended_until: until })
        .where('id', '=', writer.userId)
        .execute();
      const suspended = await api.request(POST, { input: { storyId, body: 'x' } }, writer.token);
      expect(suspended.errors?.[0]?.extensions).toMatchObject({ code: 'USER_SUSPENDED' });
      await api.db.updateTable('stories').set({ status: 'CLOSED' }).execute();
      expect(
        codeOf(await api.request(POST, { input: { storyId, body: 'x' } }, admin.adminToken)),
      ).toBe('STORY_CLOSED');
    });

    it('limits posting per address too: 60 a minute, whichever accounts post', async () => {
      const { storyId } = await setup(api);
      for (let u = 0; u < 6; u++) {
        const { token } = await api.signUp(`poster${u}`);
        for (let i = 0; i < 10; i++)
          await api.ok(POST, { input: { storyId, body: `p${u}-${i}` } }, token);
      }
      const seventh = await api.signUp('poster6');
      const answer = await api.request(
        POST,
        { input: { storyId, body: 'one too many' } },
        seventh.token,
      );
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    }, 30_000); // 60 posts: seconds on a busy two-core machine, not the default 5

    it('limits posting to 10 a minute per user', async () => {
      const { writer, storyId } = await setup(api);
      for (let i = 0; i < 10; i++)
        await api.ok(POST, { input: { storyId, body: `n${i}` } }, writer.token);
      const answer = await api.request(
        POST,
        { input: { storyId, body: 'one more' } },
        writer.token,
      );
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    });
  });

  describe('moderation when writing', () => {
    it('holds every comment under pre-moderation: PREMOD, hidden from readers, shown to its author', async () => {
      const { writer, reader, storyId } = await setup(api);
      await setSettings(api, { premod: 'ALL' });
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Held' } },
        writer.token,
      );
      expect(createComment.comment.status).toBe('PREMOD');
      const query = `query ($id: ID!) { comment(id: $id) { id status } }`;
      expect(
        (await api.ok(query, { id: createComment.comment.id }, reader.token)).comment,
      ).toBeNull();
      expect(
        (await api.ok(query, { id: createComment.comment.id }, writer.token)).comment.status,
      ).toBe('PREMOD');
      expect((await api.ok(THREAD, { id: storyId })).story.commentCount).toBe(0);
      const pending = await moderationQueue(api.db, 'PENDING', {}, {});
      expect(pending.edges.map((e) => e.node.heldBecause)).toEqual([['PREMOD_ALL']]);
    });

    it('publishes a suspect word but queues it as reported', async () => {
      const { writer, storyId } = await setup(api);
      await setSettings(api, { suspectWords: ['crypto'] });
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Buy crypto' } },
        writer.token,
      );
      expect(createComment.comment.status).toBe('NONE');
      const reported = await moderationQueue(api.db, 'REPORTED', {}, {});
      expect(reported.edges.map((e) => e.node.id)).toEqual([createComment.comment.id]);
    });
  });

  describe('editing', () => {
    it('edits within the window, keeping a revision; then EDIT_WINDOW_EXPIRED', async () => {
      const { writer, reader, storyId, admin } = await setup(api);
      const EDIT = `mutation ($input: EditCommentInput!) { editComment(input: $input) { comment { body editedAt } } }`;
      const posted = new Date();
      api.setNow(posted);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Frist' } },
        writer.token,
      );
      const id = createComment.comment.id;
      api.setNow(new Date(posted.getTime() + 29_000));
      const edited = await api.ok(EDIT, { input: { commentId: id, body: 'First' } }, writer.token);
      expect(edited.editComment.comment.body).toBe('<p>First</p>');
      expect(edited.editComment.comment.editedAt).toEqual(expect.any(String));
      expect(
        codeOf(await api.request(EDIT, { input: { commentId: id, body: 'x' } }, reader.token)),
      ).toBe('FORBIDDEN');
      api.setNow(new Date(posted.getTime() + 31_000));
      expect(
        codeOf(await api.request(EDIT, { input: { commentId: id, body: 'y' } }, writer.token)),
      ).toBe('EDIT_WINDOW_EXPIRED');
      const revisions = await api.ok(
        `query ($id: ID!) { comment(id: $id) { revisions { bodySource } } }`,
        { id },
        admin.adminToken,
      );
      expect(revisions.comment.revisions.map((r: { bodySource: string }) => r.bodySource)).toEqual([
        'Frist',
        'First',
      ]);
    });
  });

  describe('deleting one’s own comment', () => {
    const DELETE = `mutation ($id: ID!) {
      deleteComment(input: { commentId: $id }) { comment { id body removed deletedAt author { id } } }
    }`;
    const TREE = `query ($id: ID!) {
      story(id: $id) { commentCount comments { edges { node {
        id body removed deletedAt replyCount author { username }
        replies { edges { node { id body removed } } }
      } } } }
    }`;
    const COUNTS = `{ moderationCounts { pending reported } }`;

    it('erases the text, leaves a tombstone only while replies hang from it, and fixes the counts', async () => {
      const { admin, reader, writer, storyId } = await setup(api);
      const post = poster(api, storyId);
      const answered = await post('Answered', writer.token);
      await post('A reply', reader.token, answered);
      const second = await post('A second reply', reader.token, answered);
      const lonely = await post('Lonely', writer.token);
      expect((await api.ok(TREE, { id: storyId })).story.commentCount).toBe(4);

      const gone = await api.ok(DELETE, { id: answered }, writer.token);
      expect(gone.deleteComment.comment).toMatchObject({
        id: answered,
        body: '',
        removed: true,
        deletedAt: expect.any(String),
        author: null,
      });
      await api.ok(DELETE, { id: lonely }, writer.token);
      await api.ok(DELETE, { id: second }, reader.token);

      const { story } = await api.ok(TREE, { id: storyId }, reader.token);
      expect(story.commentCount).toBe(1);
      expect(story.comments.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
        answered,
      ]);
      expect(story.comments.edges[0].node).toMatchObject({
        body: '',
        removed: true,
        author: null,
        replyCount: 1,
        replies: { edges: [{ node: { body: '<p>A reply</p>', removed: false } }] },
      });
      // Moderators see when it went, and nothing of what it said: no body, no revisions.
      const seen = await api.ok(
        `query ($id: ID!) { comment(id: $id) { body bodySource deletedAt revisions { bodySource } } }`,
        { id: answered },
        admin.adminToken,
      );
      expect(seen.comment).toEqual({
        body: '',
        bodySource: '',
        deletedAt: gone.deleteComment.comment.deletedAt,
        revisions: [],
      });
      const stored = await api.db
        .selectFrom('comments')
        .select(['body_source', 'body_html'])
        .where('id', '=', answered)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ body_source: '', body_html: '' });
      // Moderators find it among the author's comments, with its time; the author no longer does.
      const USER_COMMENTS = `query ($id: ID!) { user(id: $id) { comments { edges { node { id deletedAt } } } } }`;
      const listed = await api.ok(USER_COMMENTS, { id: writer.userId }, admin.adminToken);
      expect(listed.user.comments.edges.map((e: { node: unknown }) => e.node)).toEqual([
        { id: lonely, deletedAt: expect.any(String) },
        { id: answered, deletedAt: gone.deleteComment.comment.deletedAt },
      ]);
      const own = await api.ok(
        `{ viewer { comments { edges { node { id } } } } }`,
        {},
        writer.token,
      );
      expect(own.viewer.comments.edges).toEqual([]);
    });

    it('answers a second delete with the deleted comment, counting nothing twice', async () => {
      const { writer, storyId } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Once' } },
        writer.token,
      );
      const id = createComment.comment.id;
      const first = await api.ok(DELETE, { id }, writer.token);
      const again = await api.ok(DELETE, { id }, writer.token);
      expect(again.deleteComment.comment).toEqual(first.deleteComment.comment);
      const counts = await api.db
        .selectFrom('story_comment_counts')
        .select(['status', 'count'])
        .where('story_id', '=', storyId)
        .execute();
      expect(counts).toEqual([{ status: 'NONE', count: 0 }]);
    });

    it('is for its author alone: FORBIDDEN for others, moderators included; NOT_FOUND for no comment', async () => {
      const { admin, reader, writer, storyId } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Mine' } },
        writer.token,
      );
      const id = createComment.comment.id;
      expect(codeOf(await api.request(DELETE, { id }, reader.token))).toBe('FORBIDDEN');
      expect(codeOf(await api.request(DELETE, { id }, admin.adminToken))).toBe('FORBIDDEN');
      expect(codeOf(await api.request(DELETE, { id }))).toBe('UNAUTHENTICATED');
      expect(codeOf(await api.request(DELETE, { id: crypto.randomUUID() }, writer.token))).toBe(
        'NOT_FOUND',
      );
      // Still there, untouched.
      expect((await api.ok(THREAD, { id: storyId })).story.comments.edges).toHaveLength(1);
      // A banned author may still take their words back.
      await api.db
        .updateTable('users')
        .set({ banned: 1 })
        .where('id', '=', writer.userId)
        .execute();
      expect((await api.ok(DELETE, { id }, writer.token)).deleteComment.comment.removed).toBe(true);
    });

    it('takes a held or reported comment out of the queues and their counts', async () => {
      const { admin, writer, storyId } = await setup(api);
      await setSettings(api, { premod: 'LINKS', suspectWords: ['crypto'] });
      const held = await api.ok(
        POST,
        { input: { storyId, body: 'See https://example.com' } },
        writer.token,
      );
      const suspect = await api.ok(POST, { input: { storyId, body: 'Buy crypto' } }, writer.token);
      expect(held.createComment.comment.status).toBe('PREMOD');
      expect((await api.ok(COUNTS, {}, admin.adminToken)).moderationCounts).toEqual({
        pending: 1,
        reported: 1,
      });
      await api.ok(DELETE, { id: held.createComment.comment.id }, writer.token);
      await api.ok(DELETE, { id: suspect.createComment.comment.id }, writer.token);
      expect((await api.ok(COUNTS, {}, admin.adminToken)).moderationCounts).toEqual({
        pending: 0,
        reported: 0,
      });
      expect((await moderationQueue(api.db, 'PENDING', {}, {})).edges).toEqual([]);
      expect((await moderationQueue(api.db, 'REPORTED', {}, {})).edges).toEqual([]);
    });

    it('leaves nothing to decide, feature or edit afterwards, and a held reply’s parent uncounted', async () => {
      const { admin, reader, writer, storyId } = await setup(api);
      const parent = (await api.ok(POST, { input: { storyId, body: 'Parent' } }, reader.token))
        .createComment.comment.id as string;
      const reply = async (body: string) =>
        (await api.ok(POST, { input: { storyId, body, parentId: parent } }, writer.token))
          .createComment.comment.id as string;
      const visible = await reply('Visible reply');
      await setSettings(api, { premod: 'ALL' });
      const held = await reply('Held reply');
      await setSettings(api, {});
      const replyCount = async () =>
        (
          await api.db
            .selectFrom('comments')
            .select('reply_count')
            .where('id', '=', parent)
            .executeTakeFirstOrThrow()
        ).reply_count;
      expect(await replyCount()).toBe(1);
      await api.ok(DELETE, { id: held }, writer.token);
      expect(await replyCount()).toBe(1);
      await api.ok(DELETE, { id: visible }, writer.token);
      expect(await replyCount()).toBe(0);
      // A console card still showing them: every decision is NOT_FOUND, and changes nothing.
      await new Promise((resolve) => setTimeout(resolve, 50)); // the reply's own email, sent
      const mailed = api.mail.length;
      for (const [mutation, id] of [
        ['rejectComment', visible],
        ['approveComment', held],
        ['featureComment', held],
      ] as const) {
        const answer = await api.request(
          `mutation ($id: ID!) { ${mutation}(input: { commentId: $id }) { comment { id } } }`,
          { id },
          admin.adminToken,
        );
        expect([mutation, codeOf(answer)]).toEqual([mutation, 'NOT_FOUND']);
      }
      expect(await replyCount()).toBe(0);
      const stored = await api.db
        .selectFrom('comments')
        .select(['status', 'tags'])
        .where('id', 'in', [visible, held])
        .orderBy('created_at')
        .execute();
      expect(stored).toEqual([
        { status: 'NONE', tags: '[]' },
        { status: 'PREMOD', tags: '[]' },
      ]);
      // No "replied" email for a reply approved after its author deleted it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(api.mail).toHaveLength(mailed);
      // An edit that arrives after the delete (its check ran before): the text stays erased.
      // The stores refuse the others too, whatever a caller checked before: a decision, a tag,
      // a reaction, a report; nothing of theirs is kept.
      const refused = { extensions: { code: 'NOT_FOUND' } };
      const rowsOf = (table: 'comment_revisions' | 'reactions' | 'reports') =>
        api.db.selectFrom(table).select('comment_id').where('comment_id', '=', visible).execute();
      await expect(
        editComment(api.db, { commentId: visible, bodySource: 'Back!', bodyHtml: '<p>Back!</p>' }),
      ).rejects.toMatchObject(refused);
      await expect(
        setCommentStatus(api.db, { commentId: visible, status: 'REJECTED', moderatorId: null }),
      ).rejects.toMatchObject(refused);
      await expect(setCommentTags(api.db, visible, ['FEATURED'])).rejects.toMatchObject(refused);
      // A reply that was checked before the delete, arriving after it: nothing stored.
      await expect(
        createComment(api.db, {
          storyId,
          authorId: reader.userId,
          parentId: visible,
          bodySource: 'Late answer',
          bodyHtml: '<p>Late answer</p>',
        }),
      ).rejects.toMatchObject(refused);
      expect(
        await api.db
          .selectFrom('comments')
          .select('id')
          .where('body_source', '=', 'Late answer')
          .execute(),
      ).toEqual([]);
      await expect(addReaction(api.db, visible, reader.userId)).rejects.toMatchObject(refused);
      await expect(
        addReport(api.db, { commentId: visible, userId: reader.userId, reason: 'SPAM' }),
      ).rejects.toMatchObject(refused);
      for (const table of ['comment_revisions', 'reactions', 'reports'] as const) {
        expect([table, await rowsOf(table)]).toEqual([table, []]);
      }
      // A moderator still sees it, yet cannot react to, report or answer it.
      for (const [query, variables] of [
        [
          `mutation ($id: ID!) { createReaction(input: { commentId: $id }) { comment { id } } }`,
          { id: visible },
        ],
        [
          `mutation ($id: ID!) { reportComment(input: { commentId: $id, reason: SPAM }) { comment { id } } }`,
          { id: visible },
        ],
        [POST, { input: { storyId, body: 'An answer', parentId: visible } }],
      ] as const) {
        expect(codeOf(await api.request(query, variables, admin.adminToken))).toBe('NOT_FOUND');
      }
      // The store answers a second delete with the deleted comment, changing nothing.
      const again = await deleteOwnComment(api.db, visible, writer.userId);
      expect(again).toMatchObject({ deleted: false, comment: { id: visible, bodySource: '' } });
      expect(await replyCount()).toBe(0);
    });

    it('emails nobody of a reply approved after the comment it answers was deleted', async () => {
      const { admin, reader, writer, storyId } = await setup(api);
      const parent = (await api.ok(POST, { input: { storyId, body: 'Mine' } }, reader.token))
        .createComment.comment.id as string;
      await setSettings(api, { premod: 'ALL' });
      const held = (
        await api.ok(
          POST,
          { input: { storyId, body: 'Held answer', parentId: parent } },
          writer.token,
        )
      ).createComment.comment.id as string;
      await api.ok(DELETE, { id: parent }, reader.token);
      const mailed = api.mail.length;
      await api.ok(
        `mutation ($id: ID!) { approveComment(input: { commentId: $id }) { comment { id } } }`,
        { id: held },
        admin.adminToken,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(api.mail).toHaveLength(mailed);
    });

    it('limits deleting to 20 a minute per user', async () => {
      const { writer, storyId } = await setup(api);
      const ids: string[] = [];
      for (let i = 0; i < 21; i++) {
        const { comment } = await createComment(api.db, {
          storyId,
          authorId: writer.userId,
          bodySource: `n${i}`,
          bodyHtml: `<p>n${i}</p>`,
        });
        ids.push(comment.id);
      }
      for (const id of ids.slice(0, 20)) await api.ok(DELETE, { id }, writer.token);
      const answer = await api.request(DELETE, { id: ids[20] }, writer.token);
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await api.ok(THREAD, { id: storyId })).story.comments.edges).toHaveLength(1);
    });
  });

  describe('reactions and reports', () => {
    it('refuses reactions from suspended users and reports from banned ones', async () => {
      const { writer, reader, storyId } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Hi' } },
        writer.token,
      );
      const input = { commentId: createComment.comment.id };
      const until = new Date(Date.now() + 3_600_000).toISOString();
      await api.db
        .updateTable('users')
        .set({ suspended_until: until })
        .where('id', '=', reader.userId)
        .execute();
      const react = await api.request(
        `mutation ($input: CommentIdInput!) { createReaction(input: $input) { comment { id } } }`,
        { input },
        reader.token,
      );
      expect(react.errors?.[0]?.extensions).toMatchObject({ code: 'USER_SUSPENDED', until });
      await api.db
        .updateTable('users')
        .set({ suspended_until: null, banned: 1 })
        .where('id', '=', reader.userId)
        .execute();
      const report = await api.request(
        `mutation ($input: ReportCommentInput!) { reportComment(input: $input) { comment { id } } }`,
        { input: { ...input, reason: 'SPAM' } },
        reader.token,
      );
      expect(codeOf(report)).toBe('USER_BANNED');
      expect(await api.db.selectFrom('reports').select('id').execute()).toHaveLength(0);
    });

    it('counts one reaction per user, and tells the viewer they reacted', async () => {
      const { writer, reader, storyId } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Nice' } },
        writer.token,
      );
      const REACT = `mutation ($input: CommentIdInput!) { createReaction(input: $input) { comment { reactionCount viewerReacted } } }`;
      const UNREACT = `mutation ($input: CommentIdInput!) { removeReaction(input: $input) { comment { reactionCount viewerReacted } } }`;
      const input = { commentId: createComment.comment.id };
      await api.ok(REACT, { input }, reader.token);
      const twice = await api.ok(REACT, { input }, reader.token);
      expect(twice.createReaction.comment).toEqual({ reactionCount: 1, viewerReacted: true });
      const removed = await api.ok(UNREACT, { input }, reader.token);
      expect(removed.removeReaction.comment).toEqual({ reactionCount: 0, viewerReacted: false });
    });

    it('withholds a comment at the report threshold (3), counting each reporter once', async () => {
      const { writer, storyId, admin } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Hot take' } },
        writer.token,
      );
      const input = { commentId: createComment.comment.id, reason: 'ABUSIVE', details: 'rude' };
      const reporters = [
        await api.signUp('reporter1'),
        await api.signUp('reporter2'),
        await api.signUp('reporter3'),
      ];
      for (const reporter of reporters) await api.establish(reporter.userId);
      await api.ok(REPORT, { input }, reporters[0]!.token);
      const again = await api.ok(REPORT, { input }, reporters[0]!.token);
      expect(again.reportComment.comment.status).toBe('NONE');
      const long = { ...input, details: 'x'.repeat(501) };
      const tooLong = await api.request(REPORT, { input: long }, reporters[1]!.token);
      expect(tooLong.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'details',
      });
      await api.ok(REPORT, { input }, reporters[1]!.token);
      const third = await api.ok(REPORT, { input }, reporters[2]!.token);
      // The reporter is not told why it went (nor that reports did it); moderators are.
      expect(third.reportComment.comment.status).toBe('NONE');
      const why = await api.ok(
        `query ($id: ID!) { comment(id: $id) { status heldBecause } }`,
        { id: input.commentId },
        admin.adminToken,
      );
      expect(why.comment).toEqual({ status: 'SYSTEM_WITHHELD', heldBecause: ['REPORTS'] });
      expect((await api.ok(THREAD, { id: storyId })).story.commentCount).toBe(0);
      expect(codeOf(await api.request(REPORT, { input }, writer.token))).toBe('INVALID_INPUT');
    });

    it('weighs reports by standing: brand-new accounts hide nothing, yet moderators see them', async () => {
      const { writer, storyId, admin } = await setup(api);
      const { createComment } = await api.ok(
        POST,
        { input: { storyId, body: 'Fine' } },
        writer.token,
      );
      const input = { commentId: createComment.comment.id, reason: 'ABUSIVE' };
      // The audit's probe: accounts made a moment ago, email unconfirmed (sign-ups are confirmed
      // by their code now; an address changed and not confirmed since is unconfirmed again).
      for (const name of ['sock1', 'sock2', 'sock3', 'sock4', 'sock5']) {
        const sock = await api.signUp(name);
        await api.db
          .updateTable('users')
          .set({ email_verified: 0 })
          .where('id', '=', sock.userId)
          .execute();
        expect((await api.ok(REPORT, { input }, sock.token)).reportComment.comment.status).toBe(
          'NONE',
        );
      }
      // Confirmed (by the sign-up's code) but new: a quarter each, four of them make one report.
      for (const name of ['fresh1', 'fresh2', 'fresh3', 'fresh4']) {
        const fresh = await api.signUp(name);
        await api.ok(REPORT, { input }, fresh.token);
      }
      expect((await api.ok(THREAD, { id: storyId })).story.commentCount).toBe(1);
      const reported = await moderationQueue(api.db, 'REPORTED', {}, {});
      expect(reported.edges.map((e) => e.node.id)).toEqual([input.commentId]);
      // Two established readers bring it to three reports' weight: held.
      for (const name of ['regular1', 'regular2']) {
        const regular = await api.signUp(name);
        await api.establish(regular.userId);
        await api.ok(REPORT, { input }, regular.token);
      }
      const why = await api.ok(
        `query ($id: ID!) { comment(id: $id) { status heldBecause } }`,
        { id: input.commentId },
        admin.adminToken,
      );
      expect(why.comment).toEqual({ status: 'SYSTEM_WITHHELD', heldBecause: ['REPORTS'] });
    }, 30_000); // eleven sign-ups, each an scrypt hash: seconds on a busy two-core machine

    it("counts a reporter's upheld reports for more, and mostly dismissed ones for less", async () => {
      const { writer, reader, storyId, admin } = await setup(api);
      await api.establish(reader.userId);
      const post = async (body: string) =>
        (await api.ok(POST, { input: { storyId, body } }, writer.token)).createComment.comment
          .id as string;
      const decide = (commentId: string, status: 'REJECTED' | 'APPROVED') =>
        api.ok(
          status === 'REJECTED'
            ? `mutation ($input: RejectCommentInput!) { rejectComment(input: $input) { comment { id } } }`
            : `mutation ($input: CommentIdInput!) { approveComment(input: $input) { comment { id } } }`,
          { input: { commentId } },
          admin.adminToken,
        );
      const weightOf = async (commentId: string) =>
        (
          await api.db
            .selectFrom('reports')
            .select('weight')
            .where('comment_id', '=', commentId)
            .where('user_id', '=', reader.userId)
            .executeTakeFirstOrThrow()
        ).weight;

      const first = await post('One');
      await api.ok(REPORT, { input: { commentId: first, reason: 'SPAM' } }, reader.token);
      expect(await weightOf(first)).toBe(100);
      await decide(first, 'REJECTED');
      const second = await post('Two');
      await api.ok(REPORT, { input: { commentId: second, reason: 'SPAM' } }, reader.token);
      expect(await weightOf(second)).toBe(125);
      await decide(second, 'APPROVED');
      const third = await post('Three');
      await api.ok(REPORT, { input: { commentId: third, reason: 'SPAM' } }, reader.token);
      await decide(third, 'APPROVED');
      const fourth = await post('Four');
      await api.ok(REPORT, { input: { commentId: fourth, reason: 'SPAM' } }, reader.token);
      expect(await weightOf(fourth)).toBe(50); // one upheld, two dismissed
    });
  });
});
