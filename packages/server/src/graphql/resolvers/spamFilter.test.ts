import { testDialects } from '../../db/testDatabases';
import { foldSpamLessons, spamLessons } from '../../db/store/spamModel';
import { SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';
import { codeOf } from './account/accountTestKit';

const SETTINGS = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { settings { spamFilter spamThreshold } }
}`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) { comment { id status heldBecause spamScore } }
}`;
const EDIT = `mutation ($input: EditCommentInput!) {
  editComment(input: $input) { comment { id status heldBecause spamScore } }
}`;
const COMMENT = `query ($id: ID!) { comment(id: $id) { id spamScore heldBecause } }`;
const REJECT = `mutation ($id: ID!, $reason: RejectionReason) {
  rejectComment(input: { commentId: $id, reason: $reason }) { comment { id status } }
}`;
const APPROVE = `mutation ($id: ID!) { approveComment(input: { commentId: $id }) { comment { id status } } }`;

/** Spam as a brand-new account writes it: phrases, and links to where the money is. */
const SPAM =
  'Make money from home! Free spins every day at https://spins.com and https://spins.com/bonus';

async function setup(api: Api) {
  const admin = await api.install();
  const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
    url: `${SITE_ORIGIN}/spam`,
  });
  const post = (token: string, body: string) =>
    api.request(POST, { input: { storyId: story.id, body } }, token);
  return { ...admin, storyId: story.id as string, post };
}

describe.each(testDialects())('the spam filter through the API on %s', (dialect) => {
  const api = useApi(dialect);

  it('holds a brand-new account’s spam with the reason SPAM; its score is for moderators only', async () => {
    const { adminToken, post } = await setup(api);
    const { token } = await api.signUp('newcomer');
    const answer = await post(token, SPAM);
    const held = answer.data!.createComment.comment;
    expect(held).toMatchObject({ status: 'PREMOD', spamScore: null, heldBecause: null });
    const { comment } = await api.ok(COMMENT, { id: held.id }, adminToken);
    expect(comment.heldBecause).toEqual(['SPAM']);
    expect(comment.spamScore).toBeGreaterThanOrEqual(0.9);
    expect(comment.spamScore).toBeLessThan(1);

    // The same words from a reader of long standing: scored, below the threshold, published.
    const { token: old, userId } = await api.signUp('regular');
    await api.establish(userId);
    const fine = (await post(old, SPAM)).data!.createComment.comment;
    expect(fine.status).toBe('NONE');
    const seen = (await api.ok(COMMENT, { id: fine.id }, adminToken)).comment;
    expect(seen.spamScore).toBeLessThan(0.9);
    expect(seen.heldBecause).toEqual([]);
  });

  it('rejecting as spam and approving teach the model; the reason stays with the decision', async () => {
    const { adminToken, post } = await setup(api);
    const { token } = await api.signUp('newcomer');
    const first = (await post(token, SPAM)).data!.createComment.comment.id as string;
    const second = (await post(token, 'A fair point about the budget vote.')).data!.createComment
      .comment.id as string;
    await api.ok(REJECT, { id: first, reason: 'SPAM' }, adminToken);
    await api.ok(APPROVE, { id: second }, adminToken);
    // The server folds in the background after each decision; this waits for it (or does it).
    await foldSpamLessons(api.db);
    expect(await spamLessons(api.db)).toEqual({ spam: 1, ham: 1 });
    const reasons = await api.db
      .selectFrom('moderation_decisions')
      .select(['comment_id', 'status', 'reason'])
      .orderBy('created_at')
      .execute();
    expect(reasons).toEqual([
      { comment_id: first, status: 'REJECTED', reason: 'SPAM' },
      { comment_id: second, status: 'APPROVED', reason: null },
    ]);
    // Approved after all: the lesson moves.
    await api.ok(APPROVE, { id: first }, adminToken);
    await foldSpamLessons(api.db);
    expect(await spamLessons(api.db)).toEqual({ spam: 0, ham: 2 });
    // Rejected plainly (the ham lesson goes), then again as spam: no second decision, a lesson.
    await api.ok(REJECT, { id: first }, adminToken);
    await api.ok(REJECT, { id: first, reason: 'SPAM' }, adminToken);
    await foldSpamLessons(api.db);
    expect(await spamLessons(api.db)).toEqual({ spam: 1, ham: 1 });
    const decisions = () =>
      api.db
        .selectFrom('moderation_decisions')
        .select('id')
        .execute()
        .then((r) => r.length);
    expect(await decisions()).toBe(4);
    // A reason the API does not know is refused, coded, and nothing is decided.
    expect(codeOf(await api.request(REJECT, { id: second, reason: 'UGLY' }, adminToken))).toBe(
      'INVALID_INPUT',
    );
    expect(await decisions()).toBe(4);
    expect(
      (await api.ok(`query ($id: ID!) { comment(id: $id) { status } }`, { id: second }, adminToken))
        .comment.status,
    ).toBe('APPROVED');
  });

  it('an edit is scored again, and can be held for spam', async () => {
    const { adminToken, post } = await setup(api);
    const { token } = await api.signUp('newcomer');
    const id = (await post(token, 'Interesting piece, thanks.')).data!.createComment.comment
      .id as string;
    const edited = await api.ok(EDIT, { input: { commentId: id, body: SPAM } }, token);
    expect(edited.editComment.comment.status).toBe('PREMOD');
    const { comment } = await api.ok(COMMENT, { id }, adminToken);
    expect(comment.heldBecause).toEqual(['SPAM']);
    expect(comment.spamScore).toBeGreaterThanOrEqual(0.9);
  });

  it('is a setting: off takes no score; the threshold is 50 to 99 and hidden from readers', async () => {
    const { adminToken, post } = await setup(api);
    expect((await api.ok(`{ settings { spamFilter spamThreshold } }`)).settings).toEqual({
      spamFilter: null,
      spamThreshold: null,
    });
    expect(
      (await api.ok(`{ settings { spamFilter spamThreshold } }`, {}, adminToken)).settings,
    ).toEqual({ spamFilter: true, spamThreshold: 90 });
    for (const spamThreshold of [49, 100, 75.5]) {
      const answer = await api.request(SETTINGS, { input: { spamThreshold } }, adminToken);
      expect(codeOf(answer)).toBe('INVALID_INPUT');
    }
    await api.ok(SETTINGS, { input: { spamFilter: false } }, adminToken);
    const { token } = await api.signUp('newcomer');
    const comment = (await post(token, SPAM)).data!.createComment.comment;
    expect(comment.status).toBe('NONE');
    expect((await api.ok(COMMENT, { id: comment.id }, adminToken)).comment.spamScore).toBeNull();

    // Lower, and an ordinary link from a new account is held.
    await api.ok(SETTINGS, { input: { spamFilter: true, spamThreshold: 50 } }, adminToken);
    const link = (await post(token, 'Source: https://stats.com/report')).data!.createComment
      .comment;
    expect(link.status).toBe('PREMOD');
  });

  it('never stops a post: a model that cannot be read leaves the comment unscored, and logged', async () => {
    const { adminToken, post } = await setup(api);
    await api.db.updateTable('organization').set({ spam_model_stamp: 'broken' }).execute();
    const organization = await api.db
      .selectFrom('organization')
      .select('id')
      .executeTakeFirstOrThrow();
    await api.db
      .insertInto('spam_models')
      .values({
        organization_id: organization.id,
        model: 'not json',
        stamp: 'broken',
        updated_at: new Date().toISOString(),
      })
      .execute();
    const logged = jest.spyOn(api.deps.logger, 'error');
    const { token } = await api.signUp('newcomer');
    const comment = (await post(token, SPAM)).data!.createComment.comment;
    expect(comment.status).toBe('NONE');
    expect((await api.ok(COMMENT, { id: comment.id }, adminToken)).comment.spamScore).toBeNull();
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'Spam scoring failed; the comment goes on unscored',
    );
  });

  it('takes no score of staff: they speak for the site', async () => {
    const { adminToken, post } = await setup(api);
    const comment = (await post(adminToken, SPAM)).data!.createComment.comment;
    expect(comment).toMatchObject({ status: 'NONE', spamScore: null });
  });
});
