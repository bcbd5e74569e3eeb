import { setCommentStatus } from '../../../db/store/comments';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';
import { startOfDay } from './dashboard';

const DASHBOARD = `{
  dashboard {
    today { newComments rejectedComments rejectionRate newUsers bans }
    allTime { newComments rejectedComments rejectionRate newUsers bans }
    commentsPerHour { hour count }
    topStoriesToday { story { id title } count }
  }
}`;

describe.each(testDialects())('dashboard on %s', (dialect) => {
  const api = useApi(dialect);

  it('answers today, all time, 48 hourly bars and the top stories', async () => {
    const c = await seedCommunity(api);
    const now = new Date();
    const earlier = new Date(now.getTime() - 3 * 86_400_000).toISOString();
    await c.comment({ createdAt: earlier });
    const a = await c.comment();
    const b = await c.comment();
    await setCommentStatus(api.db, { commentId: a.id, status: 'REJECTED', moderatorId: null });
    await setCommentStatus(api.db, { commentId: b.id, status: 'APPROVED', moderatorId: null });
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    const data = await api.ok(DASHBOARD, {}, c.moderator.token);
    const { dashboard } = data;
    expect(dashboard.today).toEqual({
      newComments: 2,
      rejectedComments: 1,
      rejectionRate: 0.5,
      newUsers: 5,
      bans: 1,
    });
    expect(dashboard.allTime.newComments).toBe(3);
    expect(dashboard.commentsPerHour).toHaveLength(48);
    expect(dashboard.commentsPerHour.at(-1).count).toBe(2);
    expect(dashboard.topStoriesToday).toEqual([
      { story: { id: c.story.id, title: 'A story' }, count: 2 },
    ]);
  });

  it('has a rejection rate of 0 when nothing was decided', async () => {
    const c = await seedCommunity(api);
    const data = await api.ok(DASHBOARD, {}, c.admin.token);
    expect(data.dashboard.allTime.rejectionRate).toBe(0);
  });

  it('starts the day at midnight UTC', () => {
    expect(startOfDay(new Date('2030-05-06T23:59:00.000Z'))).toBe('2030-05-06T00:00:00.000Z');
  });
});
