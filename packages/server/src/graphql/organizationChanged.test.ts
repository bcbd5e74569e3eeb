import { ORGANIZATION_CACHE_TTL_MS } from '../defaults';
import { testDialects } from '../db/testDatabases';
import { createOrganizationCache } from '../runtime/organizationCache';
import { seedCommunity } from './testing/seedCommunity';
import type { Community } from './testing/seedCommunity';
import { useApi } from './testing/useApi';

const SAVE = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { settings { bannedWords } } }`;
const READ = `{ settings { bannedWords } }`;
const MAKE_HOOK = `mutation { createWebhook(input: {
  url: "https://hooks.example.com/in", events: [USER_BANNED] }) { webhook { id } } }`;
const CHANGE_HOOK = `mutation ($id: ID!) {
  updateWebhook(input: { webhookId: $id, events: [USER_BANNED, COMMENT_CREATED] }) { webhook { id } } }`;
const DELETE_HOOK = `mutation ($id: ID!) { deleteWebhook(input: { webhookId: $id }) { webhookId } }`;
const REJECT = `mutation ($id: ID!) {
  rejectComment(input: { commentId: $id, reason: SPAM }) { comment { id } } }`;

describe.each(testDialects())('the organization’s changes, told on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
    // As the server keeps it (createParleyServer.ts); a clock that never moves, so only what
    // is announced can drop it.
    api.deps.organizationCache = createOrganizationCache({
      db: api.db,
      ttlMs: ORGANIZATION_CACHE_TTL_MS,
      now: () => 0,
    });
  });

  /** How many times `work` told the other processes, counting what it left in the background. */
  async function told(work: () => Promise<unknown>, waitMs = 1_000): Promise<number> {
    let count = 0;
    const events = api.deps.pubsub.subscribe('organizationChanged');
    const counting = (async () => {
      for await (const _event of events) count += 1;
    })();
    // The listener registers on the first pull.
    await new Promise((resolve) => setImmediate(resolve));
    await work();
    for (let waited = 0; waited < waitMs && count === 0; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await events.return?.();
    await counting;
    return count;
  }

  it('applies a settings save to the saver’s next request, and tells the others', async () => {
    const admin = c.admin.token;
    expect((await api.ok(READ, {}, admin)).settings.bannedWords).toEqual([]);
    expect(await told(() => api.ok(SAVE, { input: { bannedWords: ['darn'] } }, admin))).toBe(1);
    expect((await api.ok(READ, {}, admin)).settings.bannedWords).toEqual(['darn']);
    // Kept now: a change behind the server's back is not seen (until the copy's time is up).
    await api.db.updateTable('organization').set({ settings: '{}' }).execute();
    expect((await api.ok(READ, {}, admin)).settings.bannedWords).toEqual(['darn']);
  });

  it('tells of the events webhooks take, and of the spam model a decision changes', async () => {
    const admin = c.admin.token;
    let id = '';
    expect(
      await told(async () => {
        id = (await api.ok(MAKE_HOOK, {}, admin)).createWebhook.webhook.id as string;
      }),
    ).toBe(1);
    expect(await told(() => api.ok(CHANGE_HOOK, { id }, admin))).toBe(1);
    expect(await told(() => api.ok(DELETE_HOOK, { id }, admin))).toBe(1);
    const comment = await c.comment();
    // Told once the decision's lessons are folded into the model, in the background.
    expect(await told(() => api.ok(REJECT, { id: comment.id }, c.moderator.token))).toBe(1);
  });

  it('tells nothing of a post or a read', async () => {
    const post = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;
    const work = async () => {
      await api.ok(post, { input: { storyId: c.story.id, body: 'Hello' } }, c.commenter.token);
      await api.ok(READ, {}, c.admin.token);
    };
    expect(await told(work, 200)).toBe(0);
  });
});
