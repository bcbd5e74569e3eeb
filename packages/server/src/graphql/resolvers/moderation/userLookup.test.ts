import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const USER = `query ($id: ID!) {
  user(id: $id) {
    id username email status
    history { action message actor { username } createdAt }
    rejected: comments(status: REJECTED) { edges { node { id status } } }
    all: comments { edges { node { id } } }
  }
}`;
const MINE = `query ($first: Int) {
  myDecisions(first: $first) { status createdAt comment { id } }
}`;
const DECIDE = (name: string) =>
  `mutation ($id: ID!) { ${name}(input: { commentId: $id }) { comment { id } } }`;

const code = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
  answer.errors?.[0]?.extensions?.code;

describe.each(testDialects())('user lookup and my decisions on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('gives moderators a user with history and their rejected comments', async () => {
    const kept = await c.comment();
    const gone = await c.comment();
    await api.ok(DECIDE('rejectComment'), { id: gone.id }, c.moderator.token);
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id, message: "Bye" }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    const { user } = await api.ok(USER, { id: c.target.user.id }, c.moderator.token);
    expect(user).toMatchObject({
      username: 'target',
      email: 'target@example.com',
      status: 'BANNED',
      history: [{ action: 'BAN', message: 'Bye', actor: { username: 'moderator' } }],
      rejected: { edges: [{ node: { id: gone.id, status: 'REJECTED' } }] },
    });
    expect(user.all.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual(
      [kept.id, gone.id].sort(),
    );
  });

  it('answers null for an unknown id, and FORBIDDEN below moderator', async () => {
    expect((await api.ok(USER, { id: 'nope' }, c.moderator.token)).user).toBeNull();
    expect(code(await api.request(USER, { id: c.target.user.id }, c.staff.token))).toBe(
      'FORBIDDEN',
    );
    expect(code(await api.request(MINE, {}, c.commenter.token))).toBe('FORBIDDEN');
  });

  it('hides rejected comments from a reader asking with status: REJECTED', async () => {
    const kept = await c.comment();
    const gone = await c.comment();
    await api.ok(DECIDE('rejectComment'), { id: gone.id }, c.moderator.token);
    const AUTHOR_REJECTED = `query ($id: ID!) {
      comment(id: $id) { author { comments(status: REJECTED) { edges { node { id } } } } }
    }`;
    const asReader = await api.ok(AUTHOR_REJECTED, { id: kept.id }, c.commenter.token);
    expect(asReader.comment.author.comments.edges).toEqual([]);
    const asModerator = await api.ok(AUTHOR_REJECTED, { id: kept.id }, c.moderator.token);
    expect(asModerator.comment.author.comments.edges).toEqual([{ node: { id: gone.id } }]);
  });

  it('lists the viewer’s own decisions (at most `first`), not other moderators’', async () => {
    const first = await c.comment({ status: 'PREMOD' });
    const second = await c.comment({ status: 'PREMOD' });
    const other = await c.comment({ status: 'PREMOD' });
    await api.ok(DECIDE('approveComment'), { id: first.id }, c.moderator.token);
    await api.ok(DECIDE('rejectComment'), { id: second.id }, c.moderator.token);
    await api.ok(DECIDE('approveComment'), { id: other.id }, c.admin.token);
    const { myDecisions } = await api.ok(MINE, {}, c.moderator.token);
    expect(myDecisions.map((d: { comment: { id: string } }) => d.comment.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    const one = await api.ok(MINE, { first: 1 }, c.moderator.token);
    expect(one.myDecisions).toHaveLength(1);
  });

  it('emails the optional message of premod and role changes', async () => {
    await api.ok(
      `mutation ($id: ID!) { setUserPremod(input: { userId: $id, premod: true, message: "Slow down." }) { user { status } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    await api.ok(
      `mutation ($id: ID!) { setUserRole(input: { userId: $id, role: STAFF, message: "Welcome aboard." }) { user { role } } }`,
      { id: c.target.user.id },
      c.admin.token,
    );
    expect(api.mail.map((m) => m.text)).toEqual([
      expect.stringContaining('Slow down.'),
      expect.stringContaining('Welcome aboard.'),
    ]);
  });
});
