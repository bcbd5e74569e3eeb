import { seedBasics } from '../testFixtures';
import type { Seeded } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { deleteAccount, deletedUsername, findAccountsDueForDeletion } from './accountDeletion';
import { listComments } from './commentQueries';
import { createComment, findCommentById, listRevisions } from './comments';
import { addReaction, bestRank, setVote } from './reactions';
import { ignoreUser } from './userModeration';
import { createUser, findUserById, updateUser } from './users';

const body = (text: string) => ({ bodySource: text, bodyHtml: `<p>${text}</p>` });
const DAY_MS = 86_400_000;

describe.each(testDialects())('account deletion on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let seeded: Seeded;
  beforeEach(async () => {
    seeded = await seedBasics(t.db, { userCount: 2 });
  });
  const leaver = () => seeded.users[0]!;
  const stayer = () => seeded.users[1]!;
  const requestDeletion = (userId: string, at: Date) =>
    updateUser(t.db, userId, { deletionRequestedAt: at.toISOString() });

  it('finds only accounts whose request is older than the cutoff and not yet deleted', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    await requestDeletion(leaver().id, new Date(now.getTime() - 8 * DAY_MS));
    await requestDeletion(stayer().id, new Date(now.getTime() - 6 * DAY_MS));
    const cutoff = new Date(now.getTime() - 7 * DAY_MS);
    expect(await findAccountsDueForDeletion(t.db, cutoff)).toEqual([leaver().id]);
    await deleteAccount(t.db, leaver().id, now);
    expect(await findAccountsDueForDeletion(t.db, cutoff)).toEqual([]);
  });

  it('erases the user’s comments, keeps other people’s replies in place and fixes the counts', async () => {
    const story = seeded.story.id;
    const { comment: mine } = await createComment(t.db, {
      storyId: story,
      authorId: leaver().id,
      ...body('my words'),
    });
    const { comment: theirReply } = await createComment(t.db, {
      storyId: story,
      authorId: stayer().id,
      parentId: mine.id,
      ...body('a reply'),
    });
    const { comment: theirs } = await createComment(t.db, {
      storyId: story,
      authorId: stayer().id,
      ...body('their words'),
    });
    const { comment: myReply } = await createComment(t.db, {
      storyId: story,
      authorId: leaver().id,
      parentId: theirs.id,
      ...body('my reply'),
    });
    await addReaction(t.db, theirs.id, leaver().id);
    await addReaction(t.db, theirs.id, stayer().id);
    // A down vote goes too, and the Best rank follows.
    await setVote(t.db, theirReply.id, leaver().id, -1);
    await ignoreUser(t.db, stayer().id, leaver().id);
    await requestDeletion(leaver().id, new Date('2026-01-01T00:00:00Z'));

    const result = await deleteAccount(t.db, leaver().id, new Date('2026-01-09T00:00:00Z'));
    expect(result).toEqual({
      userId: leaver().id,
      comments: 2,
      reactions: 2,
      avatarUrl: null,
      imageNames: [],
    });

    const erased = await findCommentById(t.db, mine.id);
    expect(erased).toMatchObject({ bodySource: '', bodyHtml: '' });
    expect(erased?.deletedAt).toBe('2026-01-09T00:00:00.000Z');
    expect(await listRevisions(t.db, mine.id)).toEqual([]);
    expect(await findCommentById(t.db, myReply.id)).toMatchObject({ bodySource: '' });
    // Their comment lost my reply and my reaction; their reply to me is untouched.
    expect(await findCommentById(t.db, theirs.id)).toMatchObject({
      replyCount: 0,
      reactionCount: 1,
    });
    expect(await findCommentById(t.db, theirReply.id)).toMatchObject({
      bodySource: 'a reply',
      parentId: mine.id,
      downvoteCount: 0,
    });
    const ranks = await t.db.selectFrom('comments').select(['id', 'best_rank']).execute();
    expect(ranks.find((row) => row.id === theirReply.id)?.best_rank).toBe(0);
    expect(ranks.find((row) => row.id === theirs.id)?.best_rank).toBe(bestRank(1, 0));
    // The erased comment stays as a tombstone only because someone answered it.
    const visible = await listComments(t.db, { storyId: story, parentId: null }, { first: 10 });
    expect(visible.edges.map((edge) => edge.node.id)).toEqual([theirs.id, mine.id]);
  });

  it('empties the account, ends its sessions and frees its email for a new sign-up', async () => {
    await requestDeletion(leaver().id, new Date('2026-01-01T00:00:00Z'));
    // An import knew them by their address in the source; that record of them goes too.
    const source = (userId: string, sourceId: string) => ({
      site_id: seeded.site.id,
      format: 'disqus',
      kind: 'user' as const,
      source_id: sourceId,
      parley_id: userId,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    await t.db
      .insertInto('import_sources')
      .values([source(leaver().id, 'email:user0@example.com'), source(stayer().id, 'name:Stay')])
      .execute();
    const before = await findUserById(t.db, leaver().id);
    await deleteAccount(t.db, leaver().id, new Date('2026-01-09T00:00:00Z'));
    expect(
      (await t.db.selectFrom('import_sources').select('source_id').execute()).map(
        (row) => row.source_id,
      ),
    ).toEqual(['name:Stay']);
    const after = await findUserById(t.db, leaver().id);
    expect(after).toMatchObject({
      username: deletedUsername(leaver().id),
      avatarUrl: null,
      passwordHash: null,
    });
    expect(after?.email).not.toContain('user0');
    expect(after!.sessionEpoch).toBe(before!.sessionEpoch + 1);
    await expect(
      createUser(t.db, {
        username: 'user0',
        email: 'user0@example.com',
        passwordHash: 'hash',
        role: 'COMMENTER',
      }),
    ).resolves.toMatchObject({ username: 'user0' });
  });

  it('does nothing for a request newer than the cutoff it is given (the grace period holds)', async () => {
    await requestDeletion(leaver().id, new Date('2026-01-05T00:00:00Z'));
    const cutoff = new Date('2026-01-02T00:00:00Z');
    expect(await deleteAccount(t.db, leaver().id, new Date('2026-01-09T00:00:00Z'), cutoff)).toBe(
      undefined,
    );
    expect((await findUserById(t.db, leaver().id))?.username).toBe('user0');
  });

  it('does nothing for an account whose request was cancelled', async () => {
    expect(await deleteAccount(t.db, leaver().id)).toBeUndefined();
    expect((await findUserById(t.db, leaver().id))?.username).toBe('user0');
  });
});
