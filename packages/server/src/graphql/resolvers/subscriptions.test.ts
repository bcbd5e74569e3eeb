import { setCommentStatus } from '../../db/store/comments';
import { ignoreUser } from '../../db/store/userModeration';
import { testDialects } from '../../db/testDatabases';
import { subscribeSse } from '../testing/subscribeSse';
import { PASSWORD, SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';

const CREATED = `subscription ($storyId: ID!) {
  commentCreated(storyId: $storyId) { id body status author { username } }
}`;
const UPDATED = `subscription ($storyId: ID!) {
  commentUpdated(storyId: $storyId) { id body status removed reactionCount }
}`;
const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

async function setup(api: Api) {
  await api.install();
  const reader = await api.signUp('reader');
  const writer = await api.signUp('writer');
  const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
    url: `${SITE_ORIGIN}/live`,
  });
  return { reader, writer, storyId: story.id as string };
}

describe.each(testDialects())('live updates on %s', (dialect) => {
  const api = useApi(dialect);

  it('delivers a new published comment to a reader following the story', async () => {
    const { reader, writer, storyId } = await setup(api);
    const live = await subscribeSse(api.yoga, CREATED, { storyId }, reader.token);
    try {
      await api.ok(POST, { input: { storyId, body: 'Live!' } }, writer.token);
      const event = await live.next();
      expect(event.data?.commentCreated).toMatchObject({
        body: '<p>Live!</p>',
        status: 'NONE',
        author: { username: 'writer' },
      });
    } finally {
      live.close();
    }
  });

  it('delivers nothing for a held comment, nor for a user the reader ignores', async () => {
    const { reader, writer, storyId } = await setup(api);
    const live = await subscribeSse(api.yoga, CREATED, { storyId }, reader.token);
    try {
      await api.db.updateTable('organization').set({ settings: '{"premod":"ALL"}' }).execute();
      await api.ok(POST, { input: { storyId, body: 'Held' } }, writer.token);
      expect(await live.quietFor(150)).toBe(true);
    } finally {
      live.close();
    }
    // The ignore list is read when a subscription starts (the widget hides an ignored user at
    // once on its side, and its next subscription leaves them out here).
    await api.db.updateTable('organization').set({ settings: '{}' }).execute();
    await ignoreUser(api.db, reader.userId, writer.userId);
    const again = await subscribeSse(api.yoga, CREATED, { storyId }, reader.token);
    try {
      await api.ok(POST, { input: { storyId, body: 'Ignored' } }, writer.token);
      expect(await again.quietFor(150)).toBe(true);
    } finally {
      again.close();
    }
  });

  it('tells readers of reactions and removals, without the body of a removed comment', async () => {
    const { reader, writer, storyId } = await setup(api);
    const { createComment } = await api.ok(
      POST,
      { input: { storyId, body: 'Spicy' } },
      writer.token,
    );
    const live = await subscribeSse(api.yoga, UPDATED, { storyId }, reader.token);
    try {
      const input = { commentId: createComment.comment.id };
      await api.ok(
        `mutation ($input: CommentIdInput!) { createReaction(input: $input) { comment { id } } }`,
        { input },
        reader.token,
      );
      expect((await live.next()).data?.commentUpdated).toMatchObject({
        reactionCount: 1,
        status: 'NONE',
        removed: false,
      });
      const REPORT = `mutation ($input: ReportCommentInput!) { reportComment(input: $input) { comment { id } } }`;
      for (const name of ['reporter1', 'reporter2', 'reporter3']) {
        const { token, userId } = await api.signUp(name);
        await api.establish(userId);
        await api.ok(REPORT, { input: { ...input, reason: 'SPAM' } }, token);
      }
      // Readers learn that it went, not why (withheld by reports here).
      expect((await live.next()).data?.commentUpdated).toEqual({
        id: createComment.comment.id,
        body: '',
        status: 'NONE',
        removed: true,
        reactionCount: 1,
      });
    } finally {
      live.close();
    }
  });

  it('tells readers, signed in or not, that a comment its author deleted is gone', async () => {
    const { reader, writer, storyId } = await setup(api);
    const { createComment } = await api.ok(
      POST,
      { input: { storyId, body: 'Oops' } },
      writer.token,
    );
    const signedIn = await subscribeSse(api.yoga, UPDATED, { storyId }, reader.token);
    const anonymous = await subscribeSse(api.yoga, UPDATED, { storyId });
    try {
      await api.ok(
        `mutation ($input: CommentIdInput!) { deleteComment(input: $input) { comment { id } } }`,
        { input: { commentId: createComment.comment.id } },
        writer.token,
      );
      const gone = {
        id: createComment.comment.id,
        body: '',
        status: 'NONE',
        removed: true,
        reactionCount: 0,
      };
      expect((await signedIn.next()).data?.commentUpdated).toEqual(gone);
      expect((await anonymous.next()).data?.commentUpdated).toEqual(gone);
    } finally {
      signedIn.close();
      anonymous.close();
    }
  });

  it('delivers a held comment to readers when a moderator approves it, not its edits before', async () => {
    const { reader, writer, storyId } = await setup(api);
    const admin = await api.ok(
      `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`,
      { input: { email: 'admin@example.com', password: PASSWORD } },
    );
    await api.db.updateTable('organization').set({ settings: '{"premod":"ALL"}' }).execute();
    const { createComment } = await api.ok(
      POST,
      { input: { storyId, body: 'Held' } },
      writer.token,
    );
    const created = await subscribeSse(api.yoga, CREATED, { storyId }, reader.token);
    const updated = await subscribeSse(api.yoga, UPDATED, { storyId }, reader.token);
    try {
      await api.ok(
        `mutation ($input: EditCommentInput!) { editComment(input: $input) { comment { id } } }`,
        { input: { commentId: createComment.comment.id, body: 'Held, edited' } },
        writer.token,
      );
      expect(await updated.quietFor(150)).toBe(true); // readers never saw it: no edit news
      await api.ok(
        `mutation ($input: CommentIdInput!) { approveComment(input: $input) { comment { id } } }`,
        { input: { commentId: createComment.comment.id } },
        admin.signIn.token,
      );
      expect((await created.next()).data?.commentCreated).toMatchObject({
        id: createComment.comment.id,
        body: '<p>Held, edited</p>',
        status: 'APPROVED',
      });
    } finally {
      created.close();
      updated.close();
    }
  });

  it('releases its pub/sub listener when a reader leaves a quiet story', async () => {
    const { reader, storyId } = await setup(api);
    const pubsub = api.deps.pubsub;
    const subscribe = pubsub.subscribe.bind(pubsub);
    let open = 0;
    jest.spyOn(pubsub, 'subscribe').mockImplementation(((...args: Parameters<typeof subscribe>) => {
      const iterator = subscribe(...args);
      open += 1;
      const end = iterator.return?.bind(iterator);
      iterator.return = async (value?: unknown) => {
        open -= 1;
        return end ? end(value) : { done: true, value };
      };
      return iterator;
    }) as typeof subscribe);
    const live = await subscribeSse(api.yoga, CREATED, { storyId }, reader.token);
    await waitFor(() => open === 1);
    live.close(); // no event ever arrives on this story
    await waitFor(() => open === 0);
  });

  it('answers what was published since a time: oldest first, replies included, nothing hidden', async () => {
    const { reader, writer, storyId } = await setup(api);
    const post = async (body: string, parentId?: string) =>
      (await api.ok(POST, { input: { storyId, body, parentId } }, writer.token)).createComment
        .comment.id as string;
    const before = await post('Before');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date().toISOString();
    const first = await post('First');
    const reply = await post('A reply', before);
    await api.db.updateTable('organization').set({ settings: '{"premod":"ALL"}' }).execute();
    await post('Held');
    const heldBefore = await (async () => {
      // Held before `since`, approved after it: news to the reader (published_at, not created_at).
      const id = await post('Held, then approved');
      await api.db
        .updateTable('comments')
        .set({ created_at: '2026-01-01T00:00:00.000Z' })
        .where('id', '=', id)
        .execute();
      return id;
    })();
    await api.db.updateTable('organization').set({ settings: '{}' }).execute();
    await setCommentStatus(api.db, {
      commentId: heldBefore,
      status: 'APPROVED',
      moderatorId: null,
    });
    const SINCE = `query ($storyId: ID!, $since: DateTime!) { commentsSince(storyId: $storyId, since: $since) { id body } }`;
    const { commentsSince } = await api.ok(SINCE, { storyId, since }, reader.token);
    expect(commentsSince.map((c: { id: string }) => c.id)).toEqual([first, reply, heldBefore]);
    // A reader who ignores the writer is not told of them; a bad time is a coded error.
    await ignoreUser(api.db, reader.userId, writer.userId);
    expect((await api.ok(SINCE, { storyId, since }, reader.token)).commentsSince).toEqual([]);
    const bad = await api.request(SINCE, { storyId, since: 'yesterday' }, reader.token);
    expect(bad.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });

  it('refuses to follow a story whose live updates are off', async () => {
    const { reader, storyId } = await setup(api);
    await api.db.updateTable('stories').set({ live_updates: 0 }).execute();
    const live = await subscribeSse(api.yoga, CREATED, { storyId }, reader.token);
    try {
      expect((await live.next()).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    } finally {
      live.close();
    }
  });
});

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
