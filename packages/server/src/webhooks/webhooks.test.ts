import { Webhook as StandardWebhook } from 'standardwebhooks';
import { listAuditLog } from '../db/store/auditLog';
import { getOrganization, updateSettings } from '../db/store/organization';
import { createSite } from '../db/store/sites';
import { findOrCreateStory } from '../db/store/stories';
import { testDialects } from '../db/testDatabases';
import { seedCommunity } from '../graphql/testing/seedCommunity';
import type { Community } from '../graphql/testing/seedCommunity';
import { useApi } from '../graphql/testing/useApi';
import { createWebhookDispatcher, WEBHOOK_RETRY } from './createWebhookDispatcher';
import type { WebhookDispatcher } from './createWebhookDispatcher';
import { startReadmeReceiver } from './testing/readmeReceiver';
import type { ReadmeReceiver } from './testing/readmeReceiver';

const CREATE = `mutation ($input: CreateWebhookInput!) {
  createWebhook(input: $input) { webhook { id url events enabled secret } }
}`;
const UPDATE = `mutation ($input: UpdateWebhookInput!) {
  updateWebhook(input: $input) { webhook { id url events enabled secret } }
}`;
const LOG = `{ webhooks { id secret deliveries(first: 50) { edges { node {
  id event eventId payload state attempts nextAttemptAt responseStatus durationMs responseExcerpt error finishedAt
} } } } }`;
const TEST = `mutation ($id: ID!) { sendTestWebhook(input: { webhookId: $id }) {
  delivery { id event eventId state attempts responseStatus error } } }`;
const REDELIVER = `mutation ($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) {
  delivery { id event eventId payload state attempts responseStatus } } }`;
const ROLL = `mutation ($id: ID!) { rollWebhookSecret(input: { webhookId: $id }) { webhook { secret } } }`;
const ALL_EVENTS = [
  'COMMENT_CREATED',
  'COMMENT_APPROVED',
  'COMMENT_REJECTED',
  'COMMENT_REPORTED',
  'COMMENT_FEATURED',
  'USER_BANNED',
  'USER_SUSPENDED',
  'STORY_CREATED',
];

type Delivery = {
  id: string;
  event: string;
  eventId: string;
  payload: string;
  state: string;
  attempts: number;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
};

describe.each(testDialects())('webhooks on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  let receiver: ReadmeReceiver;
  let dispatcher: WebhookDispatcher;
  let now: Date;

  beforeAll(async () => {
    receiver = await startReadmeReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(async () => {
    c = await seedCommunity(api);
    receiver.received.length = 0;
    await receiver.set({ secret: '', status: 204, body: '', redirect: '', hang: false });
    now = new Date();
    api.setNow(now);
    dispatcher = createWebhookDispatcher({
      db: api.db,
      box: api.deps.box,
      logger: api.deps.logger,
      publicUrl: 'http://127.0.0.1:3000',
      allowPrivateAddresses: async () =>
        (await getOrganization(api.db))!.settings.webhooksAllowPrivateAddresses,
      now: () => now,
      tickMs: 0,
      timeoutMs: 2_000,
    });
    api.deps.webhooks = dispatcher;
  });
  afterEach(() => dispatcher.close());

  /** Lets endpoints be on this machine (the receiver is), as an admin would in Configure › Advanced. */
  const allowLoopback = () => updateSettings(api.db, { webhooksAllowPrivateAddresses: true });

  async function endpoint(events = ALL_EVENTS, url = receiver.url) {
    const data = await api.ok(
      CREATE,
      { input: { url, events, description: 'Newsroom' } },
      c.admin.token,
    );
    const webhook = data.createWebhook.webhook as { id: string; secret: string };
    await receiver.set({ secret: webhook.secret });
    return webhook;
  }

  async function log(): Promise<Delivery[]> {
    const data = await api.ok(LOG, {}, c.admin.token);
    return data.webhooks[0].deliveries.edges.map((e: { node: Delivery }) => e.node);
  }

  const move = (ms: number) => {
    now = new Date(now.getTime() + ms);
    api.setNow(now);
  };

  it('sends every event, signed so that the README’s sample verifies it and nothing else', async () => {
    await allowLoopback();
    const webhook = await endpoint();
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const posted = await api.ok(
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId: c.story.id, body: 'Webhooks are *neat*.' } },
      c.commenter.token,
    );
    const commentId = posted.createComment.comment.id as string;
    await api.ok(
      `mutation ($id: ID!) { reportComment(input: { commentId: $id, reason: OTHER, details: "Off" }) { comment { id } } }`,
      { id: commentId },
      c.target.token,
    );
    await api.ok(
      `mutation ($id: ID!) { rejectComment(input: { commentId: $id, reason: SPAM }) { comment { id } } }`,
      { id: commentId },
      c.moderator.token,
    );
    await api.ok(
      `mutation ($id: ID!) { featureComment(input: { commentId: $id }) { comment { id } } }`,
      { id: commentId },
      c.moderator.token,
    );
    const until = new Date(now.getTime() + 86_400_000).toISOString();
    await api.ok(
      `mutation ($id: ID!, $until: DateTime!) { suspendUser(input: { userId: $id, until: $until, message: "Cool off" }) { user { id } } }`,
      { id: c.target.user.id, until },
      c.moderator.token,
    );
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    // Banning the banned changes nothing, and tells nobody.
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    await api.ok(`{ story(url: "https://site.example/new-story", title: "New") { id } }`, {}, null);

    await dispatcher.flush();
    const received = await receiver.waitFor(8);
    expect(received).toHaveLength(8);
    // Featuring a rejected comment approves it first: both are told.
    expect(received.map((r) => r.headers['parley-event']).sort()).toEqual(
      [
        'comment.created',
        'comment.reported',
        'comment.rejected',
        'comment.approved',
        'comment.featured',
        'user.suspended',
        'user.banned',
        'story.created',
      ].sort(),
    );
    for (const request of received) {
      expect(request).toMatchObject({ verified: true, tampered: false, replayed: false });
      const body = JSON.parse(request.body);
      expect(body.id).toBe(request.headers['webhook-id']);
      expect(body.type).toBe(request.headers['parley-event']);
      // No address of anyone's, mail or IP.
      expect(request.body).not.toMatch(/@example\.com/);
      // Standard Webhooks' own library agrees.
      expect(() =>
        new StandardWebhook(webhook.secret).verify(request.body, request.headers),
      ).not.toThrow();
    }
    const byType = Object.fromEntries(
      received.map((r) => [r.headers['parley-event'], JSON.parse(r.body)]),
    );
    expect(byType['comment.created'].data).toMatchObject({
      comment: {
        id: commentId,
        url: `${c.story.url}?commentID=${commentId}`,
        status: 'NONE',
        body: '<p>Webhooks are <em>neat</em>.</p>',
        bodySource: 'Webhooks are *neat*.',
        author: { id: c.commenter.user.id, username: c.commenter.user.username },
      },
      story: { id: c.story.id, url: c.story.url },
    });
    expect(byType['comment.reported'].data.report).toEqual({ reason: 'OTHER', details: 'Off' });
    expect(byType['comment.rejected'].data).toMatchObject({
      reason: 'SPAM',
      moderator: { id: c.moderator.user.id },
      comment: { status: 'REJECTED' },
    });
    expect(byType['comment.featured'].data.comment.status).toBe('APPROVED');
    expect(byType['user.suspended'].data).toMatchObject({
      user: { id: c.target.user.id },
      message: 'Cool off',
      until,
    });
    expect(byType['story.created'].data.story).toMatchObject({
      url: 'https://site.example/new-story',
      title: 'New',
    });

    // The log shows each delivered, with its answer.
    const deliveries = await log();
    expect(deliveries).toHaveLength(8);
    for (const d of deliveries) {
      expect(d).toMatchObject({
        state: 'DELIVERED',
        attempts: 1,
        responseStatus: 204,
        error: null,
      });
    }
  });

  it('sends a SLACK endpoint a channel message, for its own site’s comments only', async () => {
    await allowLoopback();
    await updateSettings(api.db, { premod: 'ALL' });
    const data = await api.ok(
      CREATE,
      {
        input: {
          url: receiver.url,
          events: ['COMMENT_CREATED', 'USER_BANNED'],
          format: 'SLACK',
          siteId: c.site.id,
        },
      },
      c.admin.token,
    );
    await receiver.set({ secret: data.createWebhook.webhook.secret, status: 200, body: 'ok' });
    const { site: other } = await createSite(
      api.db,
      { name: 'Other', url: 'https://other.example', allowedOrigins: ['https://other.example'] },
      api.deps.box,
    );
    const { story: elsewhere } = await findOrCreateStory(api.db, {
      siteId: other.id,
      url: 'https://other.example/a',
      title: 'Elsewhere',
    });
    const post = (storyId: string, body: string) =>
      api.ok(
        `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
        { input: { storyId, body } },
        c.commenter.token,
      );
    await post(elsewhere.id, 'Not for this channel.');
    await post(c.story.id, 'Is <this> *held*?\nSecond line & more.');
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    await dispatcher.flush();
    const received = await receiver.waitFor(2);
    expect(received).toHaveLength(2);
    const [held, banned] = received.map((r) => JSON.parse(r.body).text as string);
    expect(held).toBe(
      `New comment by *commenter* awaiting review on <${c.story.url}|${c.story.title}>:\n` +
        '> Is &lt;this&gt; *held*?\n> Second line &amp; more.\n' +
        `<http://127.0.0.1:3000/admin/moderate/pending?story=${c.story.id}|Moderate>`,
    );
    expect(banned).toBe(`*moderator* banned *${c.target.user.username}*.`);
  });

  it('tells a decision once, and forgets a comment’s deliveries when its author deletes it', async () => {
    await allowLoopback();
    await endpoint(['COMMENT_CREATED', 'COMMENT_APPROVED', 'COMMENT_REPORTED', 'USER_BANNED']);
    api.deps.webhooks = undefined; // queued, not sent: the log is what is looked at
    const posted = await api.ok(
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId: c.story.id, body: 'To be deleted.' } },
      c.commenter.token,
    );
    const id = posted.createComment.comment.id as string;
    const approve = () =>
      api.ok(
        `mutation ($id: ID!) { approveComment(input: { commentId: $id }) { comment { id } } }`,
        { id },
        c.moderator.token,
      );
    await approve();
    await approve(); // a double click: nothing changes, nothing is told
    await api.ok(
      `mutation ($id: ID!) { reportComment(input: { commentId: $id, reason: OTHER }) { comment { id } } }`,
      { id },
      c.target.token,
    );
    await approve(); // reviews the report: still approved, not approved again
    const events = async () =>
      (await api.db.selectFrom('webhook_deliveries').select('event').execute())
        .map((row) => row.event)
        .sort();
    expect(await events()).toEqual(['comment.approved', 'comment.created', 'comment.reported']);

    await api.ok(
      `mutation { banUser(input: { userId: "${c.target.user.id}" }) { user { id } } }`,
      {},
      c.moderator.token,
    );
    await api.ok(
      `mutation ($id: ID!) { deleteComment(input: { commentId: $id }) { comment { id } } }`,
      { id },
      c.commenter.token,
    );
    // Its text is gone, and with it every delivery that carried it; the ban stays.
    expect(await events()).toEqual(['user.banned']);
  });

  it('costs nothing when no endpoint takes an event, and a disabled endpoint gets none', async () => {
    await allowLoopback();
    const webhook = await endpoint(['USER_BANNED']);
    expect((await getOrganization(api.db))!.webhookEvents).toEqual(['user.banned']);
    await c.comment();
    await api.ok(
      `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
      { input: { storyId: c.story.id, body: 'Nobody is told.' } },
      c.commenter.token,
    );
    await api.ok(UPDATE, { input: { webhookId: webhook.id, enabled: false } }, c.admin.token);
    expect((await getOrganization(api.db))!.webhookEvents).toEqual([]);
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    expect(await api.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
  });

  it('retries a failing endpoint after 30 s, then twice as long, and gives up after a day', async () => {
    await allowLoopback();
    const webhook = await endpoint(['USER_BANNED']);
    await receiver.set({ status: 500, body: 'down for maintenance' });
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    await dispatcher.flush();
    let [delivery] = await log();
    expect(delivery).toMatchObject({
      state: 'PENDING',
      attempts: 1,
      responseStatus: 500,
      responseExcerpt: 'down for maintenance',
      error: 'The endpoint answered 500.',
      nextAttemptAt: new Date(now.getTime() + 30_000).toISOString(),
    });
    // Not before its time.
    move(29_000);
    expect(await dispatcher.flush()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    move(1_000);
    await dispatcher.flush();
    [delivery] = await log();
    expect(delivery).toMatchObject({
      attempts: 2,
      nextAttemptAt: new Date(now.getTime() + 60_000).toISOString(),
    });
    // Every attempt carries the same event id and body, each with its own fresh signature.
    const [first, second] = await receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);

    // A day on, still failing: given up, and kept in the log for "Send again".
    move(WEBHOOK_RETRY.giveUpAfterMs);
    await dispatcher.flush();
    [delivery] = await log();
    expect(delivery).toMatchObject({ state: 'FAILED', attempts: 3, nextAttemptAt: null });

    // Send again: a new delivery of the same event, now (back on the receiver's clock: a
    // timestamp a day off is a replay to it, refused).
    now = new Date();
    api.setNow(now);
    await receiver.set({ status: 200, body: 'thanks' });
    const again = (await api.ok(REDELIVER, { id: delivery!.id }, c.admin.token)).redeliverWebhook
      .delivery;
    expect(again).toMatchObject({
      event: 'user.banned',
      eventId: delivery!.eventId,
      payload: delivery!.payload,
      state: 'DELIVERED',
      attempts: 1,
      responseStatus: 200,
    });
    expect(again.id).not.toBe(delivery!.id);
    expect(webhook.id).toBeDefined();
  });

  it('sends each delivery once when two processes look at the same time', async () => {
    await allowLoopback();
    await endpoint(['STORY_CREATED']);
    // Queued only: no process sends them until both look at once.
    api.deps.webhooks = undefined;
    for (let i = 0; i < 6; i++) {
      await api.ok(
        `query ($url: String!) { story(url: $url) { id } }`,
        { url: `https://site.example/s/${i}` },
        null,
      );
    }
    const other = createWebhookDispatcher({
      db: api.db,
      box: api.deps.box,
      logger: api.deps.logger,
      publicUrl: 'http://127.0.0.1:3000',
      allowPrivateAddresses: async () => true,
      now: () => now,
      tickMs: 0,
    });
    const sent = await Promise.all([dispatcher.flush(), other.flush()]);
    other.close();
    expect(sent[0] + sent[1]).toBe(6);
    const ids = (await receiver.waitFor(6)).map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(6);
    expect(receiver.received).toHaveLength(6);
  });

  it('refuses private addresses unless allowed, when saved and when sending', async () => {
    const refused = await api.request(
      CREATE,
      { input: { url: 'http://127.0.0.1:9/hook', events: ['USER_BANNED'] } },
      c.admin.token,
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'url' });
    expect(refused.errors?.[0]?.message).toMatch(/127\.0\.0\.1.*private/);
    for (const url of ['ftp://example.com/', 'https://user:pw@example.com/', 'not a url']) {
      const answer = await api.request(
        CREATE,
        { input: { url, events: ['USER_BANNED'] } },
        c.admin.token,
      );
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'url' });
    }
    // A name is resolved when sending: localhost is loopback, so nothing is sent.
    const port = new URL(receiver.url).port;
    const webhook = await endpoint(['USER_BANNED'], `http://localhost:${port}/`);
    const test = (await api.ok(TEST, { id: webhook.id }, c.admin.token)).sendTestWebhook.delivery;
    expect(test).toMatchObject({ event: 'webhook.test', state: 'PENDING', responseStatus: null });
    expect(test.error).toMatch(/localhost is at .*(loopback|private)/);
    expect(receiver.received).toHaveLength(0);
    // Allowed: the same endpoint is reached.
    await allowLoopback();
    const allowed = (await api.ok(TEST, { id: webhook.id }, c.admin.token)).sendTestWebhook
      .delivery;
    expect(allowed).toMatchObject({ state: 'DELIVERED', responseStatus: 204 });
    expect((await receiver.waitFor(1))[0]).toMatchObject({ verified: true });
  });

  it('is an admin’s, signed in: others are refused, secrets are shown once and audited', async () => {
    await allowLoopback();
    for (const member of [c.moderator, c.commenter]) {
      const answer = await api.request(LOG, {}, member.token);
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    }
    const token = await api.ok(
      `mutation { createApiToken(input: { name: "Admin", scope: ADMIN }) { apiToken { secret } } }`,
      {},
      c.admin.token,
    );
    const viaToken = await api.request(
      CREATE,
      { input: { url: receiver.url, events: ['USER_BANNED'] } },
      token.createApiToken.apiToken.secret,
    );
    expect(viaToken.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');

    const webhook = await endpoint(['USER_BANNED']);
    const listed = (await api.ok(LOG, {}, c.admin.token)).webhooks;
    expect(listed).toEqual([expect.objectContaining({ id: webhook.id, secret: null })]);
    const rolled = (await api.ok(ROLL, { id: webhook.id }, c.admin.token)).rollWebhookSecret.webhook
      .secret as string;
    expect(rolled).not.toBe(webhook.secret);
    // The receiver still checks with the old secret: the new signature fails it (401).
    const failed = (await api.ok(TEST, { id: webhook.id }, c.admin.token)).sendTestWebhook.delivery;
    expect(failed).toMatchObject({ state: 'PENDING', responseStatus: 401 });
    await receiver.set({ secret: rolled });
    const passed = (await api.ok(TEST, { id: webhook.id }, c.admin.token)).sendTestWebhook.delivery;
    expect(passed).toMatchObject({ state: 'DELIVERED', responseStatus: 204 });

    await api.ok(
      `mutation ($id: ID!) { deleteWebhook(input: { webhookId: $id }) { webhookId } }`,
      { id: webhook.id },
      c.admin.token,
    );
    expect(await api.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([]);
    const actions = (await listAuditLog(api.db, {}, { first: 20 })).edges.map((e) => e.node.action);
    expect(actions).toEqual(
      expect.arrayContaining(['WEBHOOK_CREATE', 'WEBHOOK_SECRET_ROLL', 'WEBHOOK_DELETE']),
    );
  });
});
