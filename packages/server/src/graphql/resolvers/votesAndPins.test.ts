import { setCommentStatus } from '../../db/store/comments';
import { testDialects } from '../../db/testDatabases';
import { subscribeSse } from '../testing/subscribeSse';
import { SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';

const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;
const VOTE = `mutation ($input: VoteInput!) {
  vote(input: $input) { comment { id reactionCount downvoteCount score viewerVote viewerReacted } }
}`;
const SETTINGS = `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { voting } } }`;
const THREAD = `query ($id: ID!, $sort: CommentSort) {
  story(id: $id) {
    pinnedComment { id tags }
    comments(orderBy: $sort) { edges { node { id score tags } } }
  }
}`;
const PIN = `mutation ($input: CommentIdInput!) { pinComment(input: $input) { comment { id status tags } } }`;
const UNPIN = `mutation ($input: CommentIdInput!) { unpinComment(input: $input) { comment { id tags } } }`;

async function setup(api: Api) {
  const { adminToken, adminId } = await api.install();
  const readers = await Promise.all(['ann', 'bob', 'cyd', 'dee'].map((name) => api.signUp(name)));
  const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
    url: `${SITE_ORIGIN}/votes`,
  });
  const storyId = story.id as string;
  const post = async (body: string, parentId?: string) =>
    (await api.ok(POST, { input: { storyId, body, parentId } }, readers[0]!.token)).createComment
      .comment.id as string;
  return { adminToken, adminId, readers, storyId, post };
}

const codeOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.code;

describe.each(testDialects())('votes and pins on %s', (dialect) => {
  const api = useApi(dialect);

  it('counts likes only by default: a down vote is FORBIDDEN and changes nothing', async () => {
    const { readers, post } = await setup(api);
    const commentId = await post('Hello');
    const down = await api.request(VOTE, { input: { commentId, vote: 'DOWN' } }, readers[1]!.token);
    expect(codeOf(down)).toBe('FORBIDDEN');
    expect(down.errors?.[0]?.extensions?.field).toBe('vote');
    const up = await api.ok(VOTE, { input: { commentId, vote: 'UP' } }, readers[1]!.token);
    expect(up.vote.comment).toMatchObject({
      reactionCount: 1,
      downvoteCount: 0,
      score: 1,
      viewerVote: 'UP',
      viewerReacted: true,
    });
  });

  it('with UP_DOWN voting, scores and sorts Best by confidence, not by raw score', async () => {
    const { adminToken, readers, storyId, post } = await setup(api);
    expect(
      (await api.ok(SETTINGS, { input: { voting: 'UP_DOWN' } }, adminToken)).updateSettings,
    ).toEqual({ settings: { voting: 'UP_DOWN' } });
    const [sure, lucky, disliked] = [await post('sure'), await post('lucky'), await post('meh')];
    const vote = (commentId: string, vote: string | null, reader: number) =>
      api.ok(VOTE, { input: { commentId, vote } }, readers[reader]!.token);
    // sure: 3 up, 1 down (score 2); lucky: 1 up (score 1); disliked: 2 down.
    for (const r of [0, 1, 2]) await vote(sure, 'UP', r);
    await vote(sure, 'DOWN', 3);
    await vote(lucky, 'UP', 1);
    await vote(disliked, 'DOWN', 1);
    // A flip: reader 2's up vote turns down, one vote moving both counts.
    await vote(disliked, 'UP', 2);
    const flipped = await vote(disliked, 'DOWN', 2);
    expect(flipped.vote.comment).toMatchObject({
      reactionCount: 0,
      downvoteCount: 2,
      score: -2,
      viewerVote: 'DOWN',
    });
    const taken = await vote(disliked, null, 2);
    expect(taken.vote.comment).toMatchObject({ downvoteCount: 1, viewerVote: null });
    await vote(disliked, 'DOWN', 2);

    const { story } = await api.ok(THREAD, { id: storyId, sort: 'BEST' });
    expect(story.comments.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
      sure,
      lucky,
      disliked,
    ]);
    expect(story.comments.edges.map((e: { node: { score: number } }) => e.node.score)).toEqual([
      2, 1, -2,
    ]);
    // Down votes cast stay counted when the site goes back to likes; new ones are refused.
    await api.ok(SETTINGS, { input: { voting: 'LIKE' } }, adminToken);
    const kept = await api.ok(THREAD, { id: storyId, sort: 'BEST' });
    expect(kept.story.comments.edges.map((e: { node: { score: number } }) => e.node.score)).toEqual(
      [2, 1, -2],
    );
    const refused = await api.request(
      VOTE,
      { input: { commentId: lucky, vote: 'DOWN' } },
      readers[3]!.token,
    );
    expect(codeOf(refused)).toBe('FORBIDDEN');
    const anonymous = await api.request(VOTE, { input: { commentId: lucky, vote: 'UP' } });
    expect(codeOf(anonymous)).toBe('UNAUTHENTICATED');
  });

  it('pins one top-level comment per story, live, approving it; replies cannot be pinned', async () => {
    const { adminToken, readers, storyId, post } = await setup(api);
    const first = await post('first');
    const second = await post('second');
    const reply = await post('a reply', first);
    const live = await subscribeSse(
      api.yoga,
      `subscription ($storyId: ID!) { commentUpdated(storyId: $storyId) { id tags } }`,
      { storyId },
    );
    try {
      const refused = await api.request(PIN, { input: { commentId: first } }, readers[1]!.token);
      expect(codeOf(refused)).toBe('FORBIDDEN');
      const onReply = await api.request(PIN, { input: { commentId: reply } }, adminToken);
      expect(codeOf(onReply)).toBe('INVALID_INPUT');

      const pinned = await api.ok(PIN, { input: { commentId: first } }, adminToken);
      expect(pinned.pinComment.comment).toEqual({
        id: first,
        status: 'APPROVED',
        tags: ['PINNED'],
      });
      // Pinning the second unpins the first, and readers see both change.
      await api.ok(PIN, { input: { commentId: second } }, adminToken);
      // Readers' last word on each comment (updates of one comment close together coalesce):
      // the first is back in its place, the second pinned.
      const last = new Map<string, string[]>();
      while (last.get(first)?.length !== 0 || !last.get(second)?.includes('PINNED')) {
        const { id, tags } = (await live.next()).data?.commentUpdated as {
          id: string;
          tags: string[];
        };
        last.set(id, tags);
      }
      const { story } = await api.ok(THREAD, { id: storyId });
      expect(story.pinnedComment).toEqual({ id: second, tags: ['PINNED'] });
      const tagged = story.comments.edges.filter((e: { node: { tags: string[] } }) =>
        e.node.tags.includes('PINNED'),
      );
      expect(tagged).toHaveLength(1);

      // Unpinning what is not pinned changes nothing; unpinning the pinned one empties the place.
      expect(
        (await api.ok(UNPIN, { input: { commentId: first } }, adminToken)).unpinComment,
      ).toEqual({ comment: { id: first, tags: [] } });
      await api.ok(UNPIN, { input: { commentId: second } }, adminToken);
      expect((await api.ok(THREAD, { id: storyId })).story.pinnedComment).toBeNull();
    } finally {
      live.close();
    }
  });

  it('keeps a pin through featuring; rejecting the pinned comment unpins it for good', async () => {
    const { adminToken, readers, storyId, post } = await setup(api);
    const commentId = await post('pin me');
    await api.ok(
      `mutation ($id: ID!) { createComment(input: { storyId: "${storyId}", body: "a reply", parentId: $id }) { comment { id } } }`,
      { id: commentId },
      readers[1]!.token,
    );
    await api.ok(PIN, { input: { commentId } }, adminToken);
    const FEATURE = `mutation ($input: CommentIdInput!) { featureComment(input: $input) { comment { tags } } }`;
    const featured = await api.ok(FEATURE, { input: { commentId } }, adminToken);
    expect([...featured.featureComment.comment.tags].sort()).toEqual(['FEATURED', 'PINNED']);
    const REJECT = `mutation ($input: RejectCommentInput!) { rejectComment(input: $input) { comment { tags } } }`;
    await api.ok(REJECT, { input: { commentId } }, adminToken);
    // Readers keep its tombstone (it has a reply), pinned for nobody.
    const { story } = await api.ok(THREAD, { id: storyId });
    expect(story.pinnedComment).toBeNull();
    expect(story.comments.edges[0].node).toMatchObject({ id: commentId, tags: ['FEATURED'] });
    const APPROVE = `mutation ($input: CommentIdInput!) { approveComment(input: $input) { comment { tags } } }`;
    const approved = await api.ok(APPROVE, { input: { commentId } }, adminToken);
    expect(approved.approveComment.comment.tags).toEqual(['FEATURED']);
    expect((await api.ok(THREAD, { id: storyId })).story.pinnedComment).toBeNull();
  });

  it('shows no pinned comment once readers cannot see it', async () => {
    const { adminToken, adminId, storyId, post } = await setup(api);
    const commentId = await post('soon rejected');
    await api.ok(PIN, { input: { commentId } }, adminToken);
    expect((await api.ok(THREAD, { id: storyId })).story.pinnedComment).toEqual({
      id: commentId,
      tags: ['PINNED'],
    });
    await setCommentStatus(api.db, { commentId, status: 'REJECTED', moderatorId: adminId });
    expect((await api.ok(THREAD, { id: storyId })).story.pinnedComment).toBeNull();
  });
});
