import { seedBasics, countRows } from '../testFixtures';
import type { Seeded } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import {
  createComment,
  editComment,
  findCommentById,
  listDecisions,
  listRevisions,
  setCommentStatus,
} from './comments';
import { addReaction } from './reactions';

const body = (text: string) => ({ bodySource: text, bodyHtml: `<p>${text}</p>` });

describe.each(testDialects())('comments store on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let seeded: Seeded;
  beforeEach(async () => {
    seeded = await seedBasics(t.db, { userCount: 2, roles: ['COMMENTER', 'MODERATOR'] });
  });
  const base = () => ({ storyId: seeded.story.id, authorId: seeded.users[0]!.id });

  it('creates a comment with its first revision and bumps the parent reply count', async () => {
    const { comment: parent } = await createComment(t.db, { ...base(), ...body('parent') });
    const { comment: reply, created } = await createComment(t.db, {
      ...base(),
      parentId: parent.id,
      ...body('reply'),
    });
    expect(created).toBe(true);
    expect(reply).toMatchObject({ parentId: parent.id, status: 'NONE', replyCount: 0, tags: [] });
    expect((await findCommentById(t.db, parent.id))?.replyCount).toBe(1);
    const revisions = await listRevisions(t.db, reply.id);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ body_source: 'reply', body_html: '<p>reply</p>' });
  });

  it('changes nothing when the comment is no longer in the expected status (a system hold after an approval)', async () => {
    const { comment } = await createComment(t.db, { ...base(), ...body('contested') });
    await setCommentStatus(t.db, {
      commentId: comment.id,
      status: 'APPROVED',
      moderatorId: seeded.users[1]!.id,
    });
    const result = await setCommentStatus(t.db, {
      commentId: comment.id,
      status: 'SYSTEM_WITHHELD',
      moderatorId: null,
      expectedStatus: 'NONE',
      heldBecause: ['REPORTS'],
    });
    expect(result.comment).toMatchObject({ status: 'APPROVED', heldBecause: null });
    expect(await listDecisions(t.db, comment.id)).toHaveLength(1);
  });

  it('does not count a held reply until it is approved, and uncounts it when rejected', async () => {
    const { comment: parent } = await createComment(t.db, { ...base(), ...body('parent') });
    const { comment: held } = await createComment(t.db, {
      ...base(),
      parentId: parent.id,
      status: 'PREMOD',
      heldBecause: ['LINK'],
      ...body('held'),
    });
    expect(held.heldBecause).toEqual(['LINK']);
    const replyCount = async () => (await findCommentById(t.db, parent.id))?.replyCount;
    expect(await replyCount()).toBe(0);
    const moderatorId = seeded.users[1]!.id;
    const approved = await setCommentStatus(t.db, {
      commentId: held.id,
      status: 'APPROVED',
      moderatorId,
    });
    expect(approved.previousStatus).toBe('PREMOD');
    expect(await replyCount()).toBe(1);
    // Visible → visible leaves the count alone.
    await setCommentStatus(t.db, { commentId: held.id, status: 'NONE', moderatorId });
    expect(await replyCount()).toBe(1);
    await setCommentStatus(t.db, { commentId: held.id, status: 'REJECTED', moderatorId });
    expect(await replyCount()).toBe(0);
    // Rejecting twice does not go below zero.
    await setCommentStatus(t.db, { commentId: held.id, status: 'REJECTED', moderatorId });
    expect(await replyCount()).toBe(0);
    const decisions = await listDecisions(t.db, held.id);
    expect(decisions.map((d) => d.status).sort()).toEqual([
      'APPROVED',
      'NONE',
      'REJECTED',
      'REJECTED',
    ]);
    expect(decisions.every((d) => d.moderator_id === moderatorId)).toBe(true);
  });

  it('returns the first comment for a repeated clientMutationId, also under concurrency', async () => {
    const { comment: parent } = await createComment(t.db, { ...base(), ...body('parent') });
    const input = { ...base(), parentId: parent.id, clientMutationId: 'm-1', ...body('once') };
    const first = await createComment(t.db, input);
    const again = await createComment(t.db, { ...input, ...body('different body') });
    expect(again).toEqual({ comment: first.comment, created: false });

    const racing = await Promise.all(
      Array.from({ length: 8 }, () => createComment(t.db, { ...input, clientMutationId: 'm-2' })),
    );
    expect(new Set(racing.map((r) => r.comment.id)).size).toBe(1);
    expect(racing.filter((r) => r.created)).toHaveLength(1);
    expect((await findCommentById(t.db, parent.id))?.replyCount).toBe(2);
    expect(await countRows(t.db, 'comments')).toBe(3);
    expect(await countRows(t.db, 'comment_revisions')).toBe(3);
    // The same id from another author is another comment.
    const other = await createComment(t.db, { ...input, authorId: seeded.users[1]!.id });
    expect(other.created).toBe(true);
  });

  it('edits a comment, keeping every body as a revision', async () => {
    const { comment } = await createComment(t.db, { ...base(), ...body('v1') });
    const edited = await editComment(t.db, { commentId: comment.id, ...body('v2') });
    expect(edited).toMatchObject({ bodySource: 'v2', bodyHtml: '<p>v2</p>' });
    expect(edited.editedAt).not.toBeNull();
    const sources = (await listRevisions(t.db, comment.id)).map((r) => r.body_source).sort();
    expect(sources).toEqual(['v1', 'v2']);
    await expect(editComment(t.db, { commentId: 'nope', ...body('x') })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('rolls back a status change when recording the decision fails', async () => {
    const { comment: parent } = await createComment(t.db, { ...base(), ...body('parent') });
    const { comment: reply } = await createComment(t.db, {
      ...base(),
      parentId: parent.id,
      ...body('r'),
    });
    // An unknown moderator breaks the decision's foreign key after the status was updated.
    // (Matched by code: better-sqlite3's errors can come from another Jest module registry, so
    // `instanceof Error` and `toThrow` are unreliable for them.)
    await expect(
      setCommentStatus(t.db, { commentId: reply.id, status: 'REJECTED', moderatorId: 'ghost' }),
    ).rejects.toMatchObject({
      code: expect.stringMatching(/^(SQLITE_CONSTRAINT_FOREIGNKEY|23503)$/),
    });
    expect((await findCommentById(t.db, reply.id))?.status).toBe('NONE');
    expect((await findCommentById(t.db, parent.id))?.replyCount).toBe(1);
    expect(await countRows(t.db, 'moderation_decisions')).toBe(0);
  });

  it('leaves nothing behind when a caller transaction fails after several store writes', async () => {
    const { comment: parent } = await createComment(t.db, { ...base(), ...body('parent') });
    await expect(
      t.db.transaction().execute(async (trx) => {
        const { comment } = await createComment(trx, {
          ...base(),
          parentId: parent.id,
          ...body('r'),
        });
        await addReaction(trx, comment.id, seeded.users[1]!.id);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await countRows(t.db, 'comments')).toBe(1);
    expect(await countRows(t.db, 'comment_revisions')).toBe(1);
    expect(await countRows(t.db, 'reactions')).toBe(0);
    expect((await findCommentById(t.db, parent.id))?.replyCount).toBe(0);
  });
});
