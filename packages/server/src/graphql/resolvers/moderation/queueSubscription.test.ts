/**
 * `moderationQueueUpdated` over Server-Sent Events through `yoga.fetch` (yoga answers a
 * subscription with `accept: text/event-stream`): the real HTTP path, no port, no socket.
 */
import { testBox } from '../../../db/testFixtures';
import { createSite } from '../../../db/store/sites';
import { findOrCreateStory } from '../../../db/store/stories';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const SUBSCRIPTION = `subscription ($siteId: ID) {
  moderationQueueUpdated(siteId: $siteId) {
    comment { id status }
    counts { pending approved rejected }
  }
}`;
const APPROVE = `mutation ($id: ID!) { approveComment(input: { commentId: $id }) { comment { id } } }`;

interface Stream {
  /** The next `data:` payload, parsed. */
  next(): Promise<any>;
  close(): Promise<void>;
}

describe.each(testDialects())('moderationQueueUpdated on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  async function subscribe(variables: Record<string, unknown>, token: string | null) {
    const response = await api.yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query: SUBSCRIPTION, variables }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let ended = false;
    let wake: () => void = () => {};
    // Read from the start: yoga pulls the subscription's first event only when the body is
    // read, and the pub/sub registers its listener on that first pull.
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        wake();
      }
      ended = true;
      wake();
    })();
    const stream: Stream = {
      async next() {
        for (;;) {
          const match = /^data: (.*)$/m.exec(buffer);
          if (match) {
            buffer = buffer.slice(match.index + match[0].length);
            return JSON.parse(match[1]!);
          }
          if (ended) throw new Error('The stream ended');
          await new Promise<void>((resolve) => (wake = resolve));
        }
      },
      close: () => reader.cancel(),
    };
    // Let that first pull reach the pub/sub before the test publishes.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return stream;
  }

  it('tells a moderator a comment left the pending queue, with fresh counts', async () => {
    const held = await c.comment({ status: 'PREMOD' });
    await c.comment({ status: 'PREMOD' });
    const stream = await subscribe({}, c.moderator.token);
    await api.ok(APPROVE, { id: held.id }, c.admin.token);
    expect(await stream.next()).toEqual({
      data: {
        moderationQueueUpdated: {
          comment: { id: held.id, status: 'APPROVED' },
          counts: { pending: 1, approved: 1, rejected: 0 },
        },
      },
    });
    await stream.close();
  });

  it('stops at the next event once the subscriber’s session no longer holds staff powers', async () => {
    const first = await c.comment({ status: 'PREMOD' });
    const second = await c.comment({ status: 'PREMOD' });
    const signedOut = await subscribe({}, c.moderator.token);
    const needsCode = await subscribe({}, c.admin.token);
    await api.ok(APPROVE, { id: first.id }, c.admin.token);
    expect((await signedOut.next()).data.moderationQueueUpdated.comment.id).toBe(first.id);
    expect((await needsCode.next()).data.moderationQueueUpdated.comment.id).toBe(first.id);
    // The moderator signs this session out; the admin turns two-factor sign-in on elsewhere, so
    // this session (signed in without it) is a reader's now.
    await api.ok(`mutation { signOut { ok } }`, {}, c.moderator.token);
    await api.db
      .updateTable('users')
      .set({ totp_secret: 'sealed:v1:x', totp_enabled_at: '2026-11-01T00:00:00.000Z' })
      .where('id', '=', c.admin.user.id)
      .execute();
    // A moderator still watching gets the next event; neither of the two does.
    const watcher = await c.member('watcher', 'MODERATOR');
    const watching = await subscribe({}, watcher.token);
    await api.ok(APPROVE, { id: second.id }, watcher.token);
    expect((await watching.next()).data.moderationQueueUpdated.comment.id).toBe(second.id);
    const nothing = Symbol('nothing');
    const late = (stream: Stream) =>
      Promise.race([
        stream.next(),
        new Promise((resolve) => setTimeout(() => resolve(nothing), 200)),
      ]);
    expect(await late(signedOut)).toBe(nothing);
    expect(await late(needsCode)).toBe(nothing);
    await Promise.all([signedOut.close(), needsCode.close(), watching.close()]);
  });

  it('filters by site: an event of another site does not arrive', async () => {
    const { site: other } = await createSite(
      api.db,
      {
        name: 'Other',
        url: 'https://other.example',
        allowedOrigins: ['https://other.example'],
      },
      testBox,
    );
    const { story } = await findOrCreateStory(api.db, {
      siteId: other.id,
      url: 'https://other.example/x',
      title: 'X',
    });
    const elsewhere = await c.comment({ status: 'PREMOD', storyId: story.id });
    const here = await c.comment({ status: 'PREMOD' });
    const stream = await subscribe({ siteId: c.site.id }, c.moderator.token);
    await api.ok(APPROVE, { id: elsewhere.id }, c.admin.token);
    await api.ok(APPROVE, { id: here.id }, c.admin.token);
    const event = await stream.next();
    expect(event.data.moderationQueueUpdated.comment.id).toBe(here.id);
    // Counts are the subscriber's scope: the other site's approval is not in them.
    expect(event.data.moderationQueueUpdated.counts).toEqual({
      pending: 0,
      approved: 1,
      rejected: 0,
    });
    await stream.close();
  });

  it.each([
    { who: 'anonymous', member: null, code: 'UNAUTHENTICATED' },
    { who: 'a commenter', member: 'commenter', code: 'FORBIDDEN' },
    { who: 'staff', member: 'staff', code: 'FORBIDDEN' },
  ] as const)('refuses $who with $code', async ({ member, code }) => {
    const stream = await subscribe({}, member === null ? null : c[member].token);
    const answer = await stream.next();
    expect(answer.errors?.[0]?.extensions?.code).toBe(code);
    await stream.close();
  });
});
