import { createComment, setCommentStatus } from './comments';
import {
  commentsPerHour,
  countUsersWithRole,
  periodFigures,
  topStories,
  USER_ACTIONS,
} from './dashboardQueries';
import { findOrCreateStory } from './stories';
import { moderateUser } from './userModeration';
import { seedBasics } from '../testFixtures';
import type { Seeded } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';

const YESTERDAY = '2030-01-01T10:30:00.000Z';
const TODAY = '2030-01-02T00:00:00.000Z';

describe.each(testDialects())('dashboard queries on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let s: Seeded;
  beforeEach(async () => {
    s = await seedBasics(t.db, { userCount: 2, roles: ['ADMIN'] });
  });

  const write = async (createdAt: string, storyId = s.story.id) =>
    (
      await createComment(t.db, {
        storyId,
        authorId: s.users[1]!.id,
        bodySource: 'x',
        bodyHtml: '<p>x</p>',
        createdAt,
      })
    ).comment;

  it('counts a period and all time: comments, rejections, decisions, users, bans', async () => {
    await write(YESTERDAY);
    const a = await write('2030-01-02T01:00:00.000Z');
    await write('2030-01-02T02:00:00.000Z');
    // Decisions and bans are stamped now (the real clock): inside "all time" and after TODAY.
    await setCommentStatus(t.db, { commentId: a.id, status: 'REJECTED', moderatorId: null });
    await setCommentStatus(t.db, { commentId: a.id, status: 'APPROVED', moderatorId: null });
    await setCommentStatus(t.db, { commentId: a.id, status: 'REJECTED', moderatorId: null });
    await moderateUser(t.db, {
      userId: s.users[1]!.id,
      actorId: null,
      action: USER_ACTIONS.BAN,
      banned: true,
    });
    await moderateUser(t.db, { userId: s.users[1]!.id, actorId: null, action: USER_ACTIONS.UNBAN });
    const all = await periodFigures(t.db);
    expect(all).toEqual({
      newComments: 3,
      rejectedComments: 1,
      approveDecisions: 1,
      rejectDecisions: 2,
      newUsers: 2,
      bans: 1,
    });
    const today = await periodFigures(t.db, TODAY);
    expect(today.newComments).toBe(2);
    const future = await periodFigures(t.db, '2999-01-01T00:00:00.000Z');
    expect(future).toEqual({
      newComments: 0,
      rejectedComments: 0,
      approveDecisions: 0,
      rejectDecisions: 0,
      newUsers: 0,
      bans: 0,
    });
  });

  it('buckets comments per hour over the window, oldest first, empty hours 0', async () => {
    await write('2030-01-02T09:59:59.999Z');
    await write('2030-01-02T10:00:00.000Z');
    await write('2030-01-02T10:45:00.000Z');
    await write('2029-12-31T09:00:00.000Z'); // before the window
    const hours = await commentsPerHour(t.db, new Date('2030-01-02T10:50:00.000Z'), 3);
    expect(hours).toEqual([
      { hour: '2030-01-02T08:00:00.000Z', count: 0 },
      { hour: '2030-01-02T09:00:00.000Z', count: 1 },
      { hour: '2030-01-02T10:00:00.000Z', count: 2 },
    ]);
    expect(await commentsPerHour(t.db, new Date('2030-01-02T10:50:00.000Z'))).toHaveLength(48);
  });

  it('ranks stories by comments since a time', async () => {
    const { story: other } = await findOrCreateStory(t.db, {
      siteId: s.site.id,
      url: 'https://news.example/b',
      title: 'B',
    });
    await write(TODAY, other.id);
    await write(TODAY, other.id);
    await write(TODAY);
    await write(YESTERDAY);
    await write(YESTERDAY);
    await write(YESTERDAY);
    expect(await topStories(t.db, TODAY)).toEqual([
      { storyId: other.id, count: 2 },
      { storyId: s.story.id, count: 1 },
    ]);
    expect(await topStories(t.db, TODAY, 1)).toEqual([{ storyId: other.id, count: 2 }]);
  });

  it('counts users with a role', async () => {
    expect(await countUsersWithRole(t.db, 'ADMIN')).toBe(1);
    expect(await countUsersWithRole(t.db, 'MODERATOR')).toBe(0);
  });
});
