import { render } from '@testing-library/preact';
import { Provider } from '@urql/preact';
import type { ComponentChildren } from 'preact';
import { createSessionTransport } from '@parley/transport';
import type { TransportOptions } from '@parley/transport';
import type { FrameToHost, HostToFrame } from '@parley/contract';
import { TOKEN_STORAGE_KEY } from '../createSession';
import { createThreadStore } from '../createThreadStore';
import type { HostBridge } from '../hostBridge';
import { createTranslator } from '../i18n/createTranslator';
import { en } from '../messages';
import type { FirstMessageKey, LazyMessageKey } from '../messages';
import { messages as accountErrors } from '../messages/en/accountErrors';
import { messages as edit } from '../messages/en/edit';
import { messages as moderation } from '../messages/en/moderation';
import { messages as profile } from '../messages/en/profile';
import { messages as report } from '../messages/en/report';
import type { FrameParams } from '../params';
import { StreamDataContext, StreamEnvContext } from '../StreamContext';
import type { StreamData, StreamEnv } from '../StreamContext';

/** The GraphQL endpoint tests intercept with msw. */
export const TEST_GRAPHQL_URL = 'http://parley.test/graphql';

/** A bridge that records what the frame sent and lets a test play the host. */
export interface TestBridge extends HostBridge {
  /** Every message sent to the host, in order. */
  sent: { type: keyof FrameToHost; payload: unknown }[];
  /** Delivers a host message to the listeners. */
  emit<K extends keyof HostToFrame>(type: K, payload: HostToFrame[K]): void;
}

/** Creates a {@link TestBridge}. */
export function createTestBridge(): TestBridge {
  const listeners = new Map<string, Set<(payload: never) => void>>();
  const sent: TestBridge['sent'] = [];
  return {
    sent,
    send: (type, payload) => void sent.push({ type, payload }),
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
    emit(type, payload) {
      for (const listener of listeners.get(type) ?? []) listener(payload as never);
    },
    dispose: () => listeners.clear(),
  };
}

/** A test environment: a real transport (msw answers it), storage, session, English text. */
export function createTestEnv(
  options: { params?: Partial<FrameParams>; transport?: Partial<TransportOptions> } = {},
): StreamEnv & { bridge: TestBridge } {
  const { transport, session } = createSessionTransport(
    { url: TEST_GRAPHQL_URL, retryDelaysMs: [], ...options.transport },
    TOKEN_STORAGE_KEY,
  );
  return {
    transport,
    params: {
      origin: 'http://host.test',
      storyURL: 'http://host.test/article',
      locale: 'en',
      theme: 'light',
      ...options.params,
    },
    bridge: createTestBridge(),
    session,
    // The whole English text, lazy areas included: components of lazy chunks are rendered here
    // directly, without the loader that adds their text (withMessages has its own test).
    t: createTranslator<FirstMessageKey, LazyMessageKey>('en', {
      ...en,
      ...profile,
      ...accountErrors,
      ...moderation,
      ...report,
      ...edit,
    }),
    window,
    thread: createThreadStore(),
  };
}

/** Renders `ui` inside the stream's providers (and the root query's data when given). */
export function renderInStream(ui: ComponentChildren, env: StreamEnv, data?: StreamData) {
  const wrap = (children: ComponentChildren) => (
    <Provider value={env.transport.client}>
      <StreamEnvContext.Provider value={env}>
        {data ? (
          <StreamDataContext.Provider value={data}>{children}</StreamDataContext.Provider>
        ) : (
          children
        )}
      </StreamEnvContext.Provider>
    </Provider>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (next: ComponentChildren) => result.rerender(wrap(next)) };
}
