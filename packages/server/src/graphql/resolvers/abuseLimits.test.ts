import { testDialects } from '../../db/testDatabases';
import { subscribeSse } from '../testing/subscribeSse';
import { SITE_ORIGIN, useApi } from '../testing/useApi';

// Unlimited, 150 edits in 367 ms were each a revision pushed to every live reader; reactions
// and username changes had no limit either.

const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;
const EDIT = `mutation ($input: EditCommentInput!) { editComment(input: $input) { comment { id } } }`;
const REACT = `mutation ($id: ID!) { createReaction(input: { commentId: $id }) { comment { id } } }`;
const UNREACT = `mutation ($id: ID!) { removeReaction(input: { commentId: $id }) { comment { id } } }`;
const RENAME = `mutation ($input: UpdateUsernameInput!) { updateUsername(input: $input) { user { username } } }`;
const UPDATED = `subscription ($storyId: ID!) { commentUpdated(storyId: $storyId) { id body } }`;

describe.each(testDialects())('abuse limits on %s', (dialect) => {
  const api = useApi(dialect);

  async function setUp() {
    await api.install();
    const writer = await api.signUp('writer');
    const reader = await api.signUp('reader');
    const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
      url: `${SITE_ORIGIN}/limits`,
    });
    const posted = await api.ok(POST, { input: { storyId: story.id, body: 'v0' } }, writer.token);
    return { writer, reader, storyId: story.id as string, id: posted.createComment.comment.id };
  }
  const codeOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
    answer.errors?.[0]?.extensions?.code;

  it('limits edits to 10 a minute, and a burst reaches live readers as one or two events carrying the last text', async () => {
    const { writer, reader, storyId, id } = await setUp();
    const live = await subscribeSse(api.yoga, UPDATED, { storyId }, reader.token);
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api.request(EDIT, { input: { commentId: id, body: `v${i + 1}` } }, writer.token),
        ),
      );
      expect(answers.filter((answer) => codeOf(answer) === 'RATE_LIMITED')).toHaveLength(2);
      const events = [await live.next()];
      while (!(await live.quietFor(600))) events.push(await live.next());
      expect(events.length).toBeLessThanOrEqual(2);
      const { body } = await api
        .ok(`query ($id: ID!) { comment(id: $id) { body } }`, { id })
        .then((data) => data.comment);
      expect(events.at(-1)?.data?.commentUpdated.body).toBe(body);
    } finally {
      live.close();
    }
  });

  it('limits reactions to 60 a minute, counting taking one back', async () => {
    const { reader, id } = await setUp();
    // The limits count in fixed one-minute windows: 61 reactions that happened to straddle the
    // turn of a minute (a slow run: it failed so in CI) would count in two. The clock stands
    // still for them instead.
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      for (let i = 0; i < 30; i += 1) {
        await api.ok(REACT, { id }, reader.token);
        await api.ok(UNREACT, { id }, reader.token);
      }
      expect(codeOf(await api.request(REACT, { id }, reader.token))).toBe('RATE_LIMITED');
    } finally {
      now.mockRestore();
    }
  });

  it('limits username changes to 3 a day; the same name again is not a change', async () => {
    const { writer } = await setUp();
    for (const name of ['writer_2', 'writer_3', 'writer_3', 'writer_4']) {
      await api.ok(RENAME, { input: { username: name } }, writer.token);
    }
    const refused = await api.request(RENAME, { input: { username: 'writer_5' } }, writer.token);
    expect(codeOf(refused)).toBe('RATE_LIMITED');
    expect(refused.errors?.[0]?.extensions?.retryAfterSeconds).toEqual(expect.any(Number));
  });
});
