import { seedBasics } from '../testFixtures';
import type { Seeded } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { listReplies } from './commentQueries';
import { createComment } from './comments';
import { firstRepliesOf } from './replyPreviews';

const body = (text: string) => ({ bodySource: text, bodyHtml: `<p>${text}</p>` });

describe.each(testDialects())('first replies of many comments on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let seeded: Seeded;
  beforeEach(async () => {
    seeded = await seedBasics(t.db, { userCount: 1, roles: ['COMMENTER'] });
  });

  async function thread(replyCount: number, held = 0) {
    const base = { storyId: seeded.story.id, authorId: seeded.users[0]!.id };
    const { comment: parent } = await createComment(t.db, { ...base, ...body('parent') });
    for (let i = 0; i < replyCount + held; i++) {
      await createComment(t.db, {
        ...base,
        parentId: parent.id,
        ...body(`reply ${i}`),
        status: i < held ? 'PREMOD' : 'NONE',
        // Equal times for some, so the id breaks ties as listReplies does.
        createdAt: `2025-01-01T00:00:0${Math.floor(i / 2)}.000Z`,
      });
    }
    return parent.id;
  }

  it('answers each parent’s first page in one query, as listReplies would', async () => {
    const none = await thread(0);
    const two = await thread(2, 1);
    const five = await thread(5);
    const pages = await firstRepliesOf(t.db, [none, two, five], 3);
    for (const parent of [none, two, five]) {
      const expected = await listReplies(t.db, parent, { first: 3 });
      expect(pages.get(parent)).toEqual(expected);
    }
    expect(pages.get(two)?.edges).toHaveLength(2); // the held reply is not shown
    expect(pages.get(five)?.pageInfo.hasNextPage).toBe(true);
  });

  it('gives cursors that listReplies continues from', async () => {
    const five = await thread(5);
    const first = (await firstRepliesOf(t.db, [five], 3)).get(five)!;
    const rest = await listReplies(t.db, five, { first: 10, after: first.pageInfo.endCursor });
    const all = await listReplies(t.db, five, { first: 10 });
    expect([...first.edges, ...rest.edges].map((e) => e.node.id)).toEqual(
      all.edges.map((e) => e.node.id),
    );
  });
});
