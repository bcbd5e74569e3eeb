import { graphql, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createOutbox, outboxKey } from './createOutbox';
import type { OutboxEntry } from './createOutbox';
import { createTestEnv } from './testing/createTestEnv';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  jest.restoreAllMocks();
});
afterAll(() => server.close());

const entry = (key: string, body = key): OutboxEntry => ({
  key,
  storyId: 's1',
  parentId: null,
  body,
  createdAt: '2026-01-01T00:00:00Z',
});
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answerPosts() {
  const keys: string[] = [];
  server.use(
    graphql.mutation('CreateComment', ({ variables }) => {
      const { clientMutationId, body } = variables.input as Record<string, string>;
      keys.push(clientMutationId!);
      return HttpResponse.json({
        data: { createComment: { comment: { id: `c-${clientMutationId}`, body, status: 'NONE' } } },
      });
    }),
  );
  return keys;
}

test('two posts at once are both kept in storage until answered', async () => {
  server.use(graphql.mutation('CreateComment', () => HttpResponse.error()));
  const env = createTestEnv();
  const outbox = createOutbox(env);
  await Promise.all([outbox.post(entry('a')), outbox.post(entry('b'))]);
  expect(await env.transport.storage.get(outboxKey('s1'))).toEqual([entry('a'), entry('b')]);
});

test('a flush while an answered post is still leaving storage does not send it again', async () => {
  const keys = answerPosts();
  const env = createTestEnv();
  const outbox = createOutbox(env);
  const { storage } = env.transport;
  // Slow storage: the answer is in, but the entry is still listed for a while.
  const remove = storage.remove.bind(storage);
  jest.spyOn(storage, 'remove').mockImplementation(async (key) => (await wait(100), remove(key)));

  await outbox.post(entry('a'));
  await wait(30);
  expect(keys).toEqual(['a']);
  await outbox.flush('s1');
  await wait(150);
  expect(keys).toEqual(['a']);
  expect(env.thread.list()[0]).toMatchObject({ key: 'a', state: 'posted' });
});

test('watching flushes on `online` and stops listening when the last box goes', async () => {
  const env = createTestEnv();
  await env.transport.storage.set(outboxKey('s1'), [entry('q')]);
  const outbox = createOutbox(env);
  jest.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
  const stop = outbox.watch('s1');
  await wait(30);
  expect(env.thread.list()[0]).toMatchObject({ key: 'q', state: 'queued' });
  stop();
  jest.restoreAllMocks();
  const keys = answerPosts();
  window.dispatchEvent(new Event('online'));
  await wait(50);
  expect(keys).toEqual([]);
  outbox.watch('s1');
  await wait(50);
  expect(keys).toEqual(['q']);
});
