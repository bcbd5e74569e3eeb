import { listComments } from '../../../db/store/commentQueries';
import { listDecisions, requireComment } from '../../../db/store/comments';
import { addReport } from '../../../db/store/reactions';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const DECIDE = (name: string) => `mutation ($id: ID!) {
  ${name}(input: { commentId: $id }) { comment { id status tags replyCount } }
}`;
const COUNTS = `{ moderationCounts { pending reported unmoderated approved rejected } }`;

describe.each(testDialects())('comment decisions on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  /** Collects the events published during `work`. */
  async function events(work: () => Promise<unknown>) {
    const seen: string[] = [];
    const updated = api.deps.pubsub.subscribe('commentUpdated', c.story.id);
    const queue = api.deps.pubsub.subscribe('moderationQueueUpdated');
    const drain = async (it: AsyncIterable<{ commentId: string }>, label: string) => {
      for await (const e of it) seen.push(`${label}:${e.commentId}`);
    };
    const done = Promise.all([drain(updated, 'comment'), drain(queue, 'queue')]);
    // Repeaters register their listener on the first pull; let both start before publishing.
    await new Promise((resolve) => setImmediate(resolve));
    await work();
    await new Promise((resolve) => setImmediate(resolve));
    await updated.return?.();
    await queue.return?.();
    await done;
    return seen.sort();
  }

  it('approves a held comment: APPROVED, a decision by the moderator, both events', async () => {
    const held = await c.comment({ status: 'PREMOD', heldBecause: ['PREMOD_ALL'] });
    const seen = await events(async () => {
      const data = await api.ok(DECIDE('approveComment'), { id: held.id }, c.moderator.token);
      expect(data.approveComment.comment).toMatchObject({ id: held.id, status: 'APPROVED' });
    });
    expect(seen).toEqual([`comment:${held.id}`, `queue:${held.id}`]);
    const decisions = await listDecisions(api.db, held.id);
    expect(decisions).toMatchObject([{ moderator_id: c.moderator.user.id, status: 'APPROVED' }]);
    const counts = await api.ok(COUNTS, {}, c.moderator.token);
    expect(counts.moderationCounts).toMatchObject({ pending: 0, approved: 1 });
  });

  it('rejects a published reply: it leaves the thread and the parent’s reply count', async () => {
    const parent = await c.comment();
    const reply = await c.comment({ parentId: parent.id });
    await api.ok(DECIDE('rejectComment'), { id: reply.id }, c.admin.token);
    // Read from the store: the thread query belongs to another resolver file.
    expect((await requireComment(api.db, parent.id)).replyCount).toBe(0);
    const thread = await listComments(api.db, { storyId: c.story.id }, {});
    expect(thread.edges.map((e) => e.node.id)).toEqual([parent.id]);
    expect(await listDecisions(api.db, reply.id)).toMatchObject([
      { moderator_id: c.admin.user.id, status: 'REJECTED' },
    ]);
  });

  it('records nothing and publishes nothing when the comment already has that status', async () => {
    const comment = await c.comment();
    await api.ok(DECIDE('rejectComment'), { id: comment.id }, c.moderator.token);
    const seen = await events(() =>
      api.ok(DECIDE('rejectComment'), { id: comment.id }, c.moderator.token),
    );
    expect(seen).toEqual([]);
    expect(await listDecisions(api.db, comment.id)).toHaveLength(1);
  });

  it('puts an approved comment back in REPORTED when new reports come, until approved again', async () => {
    const comment = await c.comment();
    const QUEUE = `{ moderationQueue(queue: REPORTED) { edges { node { id } } } }`;
    const reported = async () =>
      (await api.ok(QUEUE, {}, c.moderator.token)).moderationQueue.edges.map((e: any) => e.node.id);
    await addReport(api.db, { commentId: comment.id, userId: c.staff.user.id, reason: 'SPAM' });
    expect(await reported()).toEqual([comment.id]);
    await api.ok(DECIDE('approveComment'), { id: comment.id }, c.moderator.token);
    expect(await reported()).toEqual([]); // reviewed
    await addReport(api.db, {
      commentId: comment.id,
      userId: c.commenter.user.id,
      reason: 'ABUSIVE',
    });
    expect(await reported()).toEqual([comment.id]); // a new report after the approval
    await api.ok(DECIDE('approveComment'), { id: comment.id }, c.moderator.token);
    expect(await reported()).toEqual([]);
    expect(await listDecisions(api.db, comment.id)).toHaveLength(2);
  });

  it('features a held comment: approved too, tagged, listed in the featured tab', async () => {
    const held = await c.comment({ status: 'PREMOD' });
    const data = await api.ok(DECIDE('featureComment'), { id: held.id }, c.moderator.token);
    expect(data.featureComment.comment).toMatchObject({ status: 'APPROVED', tags: ['FEATURED'] });
    const featured = await listComments(api.db, { storyId: c.story.id, featured: true }, {});
    expect(featured.edges.map((e) => e.node.id)).toEqual([held.id]);
    const again = await api.ok(DECIDE('featureComment'), { id: held.id }, c.moderator.token);
    expect(again.featureComment.comment.tags).toEqual(['FEATURED']);
  });

  it('unfeatures: the tag goes, the status stays', async () => {
    const comment = await c.comment({ tags: ['STAFF', 'FEATURED'], status: 'APPROVED' });
    const data = await api.ok(DECIDE('unfeatureComment'), { id: comment.id }, c.moderator.token);
    expect(data.unfeatureComment.comment).toMatchObject({ status: 'APPROVED', tags: ['STAFF'] });
  });

  it.each(['approveComment', 'rejectComment', 'featureComment', 'unfeatureComment'])(
    '%s of an unknown comment is NOT_FOUND',
    async (name) => {
      const answer = await api.request(DECIDE(name), { id: 'nope' }, c.moderator.token);
      expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    },
  );
});
