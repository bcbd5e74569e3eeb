import { testDialects } from '../../db/testDatabases';
import { SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';

const STORY = `query ($url: String!) { story(url: $url) { id } }`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) { comment { id status } }
}`;
const DECIDE = (name: string) =>
  `mutation ($id: ID!) { ${name}(input: { commentId: $id }) { comment { id } } }`;
const SETTINGS = `mutation ($input: UpdateNotificationSettingsInput!) {
  updateNotificationSettings(input: $input) { user { id } }
}`;

/** Mail goes out in the background; wait until `count` messages arrived (or fail after 2 s). */
async function mailArrives(api: Api, count: number) {
  const until = Date.now() + 2000;
  while (api.mail.length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return api.mail;
}

/** Lets background work settle, for tests asserting that nothing was sent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

async function setup(api: Api) {
  const admin = await api.install();
  const writer = await api.signUp('writer');
  const reader = await api.signUp('reader');
  await api.db.updateTable('users').set({ email_verified: 1 }).execute();
  const { story } = await api.ok(STORY, { url: `${SITE_ORIGIN}/news/1?page=2` });
  const post = async (body: string, token: string, parentId?: string) =>
    (await api.ok(POST, { input: { storyId: story.id, body, parentId } }, token)).createComment
      .comment.id as string;
  const parentId = await post('What do you think?', writer.token);
  api.mail.length = 0;
  return { admin, writer, reader, storyId: story.id as string, parentId, post };
}

describe.each(testDialects())('notification emails on %s', (dialect) => {
  const api = useApi(dialect);

  it('tells the author of a comment about a reply, with a permalink and an unsubscribe link', async () => {
    const { reader, parentId, post } = await setup(api);
    const replyId = await post('I  think\n\nit is **great**', reader.token, parentId);
    const [message] = await mailArrives(api, 1);
    expect(message).toMatchObject({
      to: 'writer@example.com',
      subject: 'reader replied to your comment',
    });
    expect(message!.text).toContain('> I think it is **great**');
    expect(message!.text).toContain(`${SITE_ORIGIN}/news/1?page=2&commentID=${replyId}`);
    expect(message!.text).toMatch(/\/account\/unsubscribe#token=\S+/);
  });

  it('sends nothing for a reply to oneself, to an unverified address, or with the switch off', async () => {
    const { writer, reader, parentId, post } = await setup(api);
    await post('Answering myself', writer.token, parentId);
    await api.ok(SETTINGS, { input: { onReply: false } }, writer.token);
    await post('Nobody hears this', reader.token, parentId);
    const readerComment = await post('Mine', reader.token);
    await api.db.updateTable('users').set({ email_verified: 0 }).execute();
    await post('Unverified', writer.token, readerComment);
    await settle();
    expect(api.mail).toEqual([]);
  });

  it('tells the author when a held reply is approved, not while it is held', async () => {
    const { admin, reader, parentId, post } = await setup(api);
    await api.db
      .updateTable('organization')
      .set({ settings: JSON.stringify({ premod: 'ALL' }) })
      .execute();
    const held = await post('Held for review', reader.token, parentId);
    await settle();
    expect(api.mail).toEqual([]);
    await api.ok(DECIDE('approveComment'), { id: held }, admin.adminToken);
    const [message] = await mailArrives(api, 1);
    expect(message).toMatchObject({ to: 'writer@example.com' });
  });

  it('sends nothing for a reply from someone the author ignores', async () => {
    const { writer, reader, parentId, post } = await setup(api);
    const { user } = await api.ok(`query { viewer { id } }`, {}, reader.token).then((d) => ({
      user: d.viewer,
    }));
    await api.ok(
      `mutation ($input: UserIdInput!) { ignoreUser(input: $input) { user { id } } }`,
      { input: { userId: user.id } },
      writer.token,
    );
    await post('You cannot hear me', reader.token, parentId);
    await settle();
    expect(api.mail).toEqual([]);
  });

  it('does not announce a reply twice when it is rejected and approved again', async () => {
    const { admin, reader, parentId, post } = await setup(api);
    const reply = await post('Once', reader.token, parentId);
    await mailArrives(api, 1);
    await api.ok(DECIDE('rejectComment'), { id: reply }, admin.adminToken);
    await api.ok(DECIDE('approveComment'), { id: reply }, admin.adminToken);
    await settle();
    expect(api.mail).toHaveLength(1);
  });

  it('tells the author their comment was featured', async () => {
    const { admin, parentId } = await setup(api);
    await api.ok(DECIDE('featureComment'), { id: parentId }, admin.adminToken);
    const [message] = await mailArrives(api, 1);
    expect(message).toMatchObject({
      to: 'writer@example.com',
      subject: 'Your comment was featured',
    });
    expect(message!.text).toContain('> What do you think?');
  });
});
