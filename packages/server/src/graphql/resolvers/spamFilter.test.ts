import { isDeepStrictEqual } from 'node:util';
import { testDialects } from '../../db/testDatabases';
import { spamLessons } from '../../db/store/spamModel';
import { SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';
import { codeOf } from './account/accountTestKit';
import { createAkismetClient } from '../../moderation/akismet';
import { AKISMET_TEST_KEY, useAkismetStandIn } from '../../moderation/testing/akismetStandIn';
import type { AkismetStandIn } from '../../moderation/testing/akismetStandIn';
import { forgetOldAkismetChecks } from '../../db/store/akismetChecks';

const SETTINGS = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { settings { spamFilter spamThreshold } }
}`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) { comment { id status heldBecause spamScore } }
}`;
const EDIT = `mutation ($input: EditCommentInput!) {
  editComment(input: $input) { comment { id status heldBecause spamScore } }
}`;
const DELETE = `mutation ($input: CommentIdInput!) { deleteComment(input: $input) { comment { id } } }`;
const COMMENT = `query ($id: ID!) { comment(id: $id) { id spamScore heldBecause } }`;
const REJECT = `mutation ($id: ID!, $reason: RejectionReason) {
  rejectComment(input: { commentId: $id, reason: $reason }) { comment { id status } }
}`;
const APPROVE = `mutation ($id: ID!) { approveComment(input: { commentId: $id }) { comment { id status } } }`;

/**
 * What `read` answers once it equals `expected`, or its last answer after 3 s: for what the server
 * does in the background after answering (folding lessons, reporting to Akismet).
 */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const until = Date.now() + 3000;
  let last = await read();
  while (!isDeepStrictEqual(last, expected) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await read();
  }
  return last;
}

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
    // The server folds in the background after each decision.
    expect(await eventually(() => spamLessons(api.db), { spam: 1, ham: 1 })).toEqual({
      spam: 1,
      ham: 1,
    });
    const reasons = await api.db
      .selectFrom('moderation_decisions')
      .select(['comment_id', 'status', 'reason'])
      .orderBy('created_at')
      .execute();
    expect(reasons).toHaveLength(2);
    expect(reasons).toEqual(
      expect.arrayContaining([
        { comment_id: first, status: 'REJECTED', reason: 'SPAM' },
        { comment_id: second, status: 'APPROVED', reason: null },
      ]),
    );
    // The moderator's own history says why.
    const { myDecisions } = await api.ok(`{ myDecisions { status reason } }`, {}, adminToken);
    expect(myDecisions).toHaveLength(2);
    expect(myDecisions).toEqual(
      expect.arrayContaining([
        { status: 'APPROVED', reason: null },
        { status: 'REJECTED', reason: 'SPAM' },
      ]),
    );
    // Approved after all: the lesson moves.
    await api.ok(APPROVE, { id: first }, adminToken);
    expect(await eventually(() => spamLessons(api.db), { spam: 0, ham: 2 })).toEqual({
      spam: 0,
      ham: 2,
    });
    // Rejected plainly (the ham lesson goes), then again as spam: no second decision, a lesson.
    await api.ok(REJECT, { id: first }, adminToken);
    await api.ok(REJECT, { id: first, reason: 'SPAM' }, adminToken);
    expect(await eventually(() => spamLessons(api.db), { spam: 1, ham: 1 })).toEqual({
      spam: 1,
      ham: 1,
    });
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

describe.each(testDialects())('Akismet beside the spam filter on %s', (dialect) => {
  const api = useApi(dialect);
  const running = useAkismetStandIn();
  let standIn: AkismetStandIn;
  beforeEach(() => {
    standIn = running();
    api.deps.akismet = createAkismetClient({
      apiKey: AKISMET_TEST_KEY,
      url: standIn.url,
      blog: 'https://parley.example',
      timeoutMs: 200,
    });
  });
  const IP = '203.0.113.9';
  const checks = () =>
    api.db.selectFrom('akismet_checks').select(['comment_id', 'verdict', 'user_ip']).execute();
  const paths = () => standIn.requests.map((r) => r.path);
  /** Reports go in the background: wait for `count` requests (or give up after 2 s). */
  const requestsArrive = async (count: number) => {
    const until = Date.now() + 2000;
    while (standIn.requests.length < count && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return paths();
  };

  async function established(api: Api) {
    const setup = await (async () => {
      const admin = await api.install();
      const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
        url: `${SITE_ORIGIN}/akismet`,
      });
      return { ...admin, storyId: story.id as string };
    })();
    const { token, userId } = await api.signUp('regular');
    await api.establish(userId);
    /** Posts from {@link IP}, or from no known address (`{ ip: null }`: in process). */
    const post = async (body: string, from: { ip: string | null } = { ip: IP }) => {
      const answer = await api.request(
        POST,
        { input: { storyId: setup.storyId, body } },
        token,
        from.ip ?? undefined,
      );
      return answer.data!.createComment.comment as { id: string; status: string };
    };
    return { ...setup, post, token };
  }

  it('joins its verdict to the score: what it calls blatant is held, what it calls spam weighs', async () => {
    const { adminToken, post } = await established(api);
    const fine = await post('A fair point about the budget vote.');
    const spam = await post('viagra for sale');
    const blatant = await post('blatant viagra for sale');
    expect([fine.status, spam.status, blatant.status]).toEqual(['NONE', 'NONE', 'PREMOD']);
    const scoreOf = async (id: string) =>
      (await api.ok(COMMENT, { id }, adminToken)).comment.spamScore as number;
    // The same words without Akismet's say: the local score alone.
    expect(await scoreOf(spam.id)).toBeGreaterThan(0.5);
    expect(await scoreOf(fine.id)).toBeLessThan(0.05);
    expect((await api.ok(COMMENT, { id: blatant.id }, adminToken)).comment.heldBecause).toEqual([
      'SPAM',
    ]);
    expect(standIn.requests[1]?.fields).toMatchObject({
      user_ip: IP,
      comment_author: 'regular',
      comment_content: 'viagra for sale',
      permalink: `${SITE_ORIGIN}/akismet`,
    });
    expect(await checks()).toEqual(
      expect.arrayContaining([
        { comment_id: fine.id, verdict: 'ham', user_ip: IP },
        { comment_id: spam.id, verdict: 'spam', user_ip: IP },
        { comment_id: blatant.id, verdict: 'discard', user_ip: IP },
      ]),
    );
    // No address (a request from inside the process): Akismet is not asked.
    await post('another fair point about the vote', { ip: null });
    expect(standIn.requests).toHaveLength(3);
  });

  it('is told of decisions it judged otherwise, once', async () => {
    const { adminToken, post } = await established(api);
    const missed = await post('A fair point about the budget vote.');
    const wrong = await post('blatant viagra, or so it seems');
    await api.ok(REJECT, { id: missed.id, reason: 'SPAM' }, adminToken);
    await api.ok(APPROVE, { id: wrong.id }, adminToken);
    expect(await requestsArrive(4)).toEqual([
      '/1.1/comment-check',
      '/1.1/comment-check',
      '/1.1/submit-spam',
      '/1.1/submit-ham',
    ]);
    // What Akismet was told is kept: a repeat has nothing new to tell it.
    const told = [
      { comment_id: missed.id, verdict: 'spam', user_ip: IP },
      { comment_id: wrong.id, verdict: 'ham', user_ip: IP },
    ];
    const sorted = async () =>
      (await checks()).sort((a, b) => a.comment_id.localeCompare(b.comment_id));
    told.sort((a, b) => a.comment_id.localeCompare(b.comment_id));
    expect(await eventually(sorted, told)).toEqual(told);
    expect(standIn.requests[2]?.fields).toMatchObject({
      user_ip: IP,
      comment_content: 'A fair point about the budget vote.',
    });
    // Approving again, or rejecting plainly: nothing more to tell it. Then a reversal: approving
    // what it was told is spam is told, once, though two moderators press at once.
    await api.ok(APPROVE, { id: wrong.id }, adminToken);
    await api.ok(REJECT, { id: missed.id }, adminToken);
    await Promise.all([
      api.ok(APPROVE, { id: missed.id }, adminToken),
      api.ok(APPROVE, { id: missed.id }, adminToken),
    ]);
    expect(await requestsArrive(5)).toHaveLength(5);
    expect(standIn.requests[4]?.path).toBe('/1.1/submit-ham');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(standIn.requests).toHaveLength(5);
  });

  it('never stops a post when it is slow, and forgets what it was told with the text', async () => {
    const { post, adminToken, token } = await established(api);
    const logged = jest.spyOn(api.deps.logger, 'warn');
    standIn.delay(1000);
    const slow = await post('A fair point about the budget vote.');
    expect(slow.status).toBe('NONE');
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.anything() }),
      'Akismet did not answer; the local spam score stands alone',
    );
    // The local score alone: an established reader's plain words, at the prior.
    expect((await api.ok(COMMENT, { id: slow.id }, adminToken)).comment.spamScore).toBeCloseTo(
      0.05,
      5,
    );
    expect(await checks()).toEqual([]);
    standIn.delay(0);
    const kept = await post('Another fair point about the vote.');
    const gone = await post('Yet another fair point about the vote.');
    const old = await post('An old point about the vote.');
    const edited = await post('A point about the vote, to be edited.');
    // The author deletes one, edits another: what Akismet judged goes with its text.
    await api.ok(DELETE, { input: { commentId: gone.id } }, token);
    await api.ok(EDIT, { input: { commentId: edited.id, body: 'Something else now.' } }, token);
    // Another is older than the address retention (30 days): the hourly sweep forgets it.
    await api.db
      .updateTable('akismet_checks')
      .set({ created_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where('comment_id', '=', old.id)
      .execute();
    expect(await forgetOldAkismetChecks(api.db, new Date(), 30)).toBe(1);
    expect((await checks()).map((c) => c.comment_id)).toEqual([kept.id]);
  });
});
