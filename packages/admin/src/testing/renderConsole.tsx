import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'urql';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createSessionTransport } from '@parley/transport';
import type { TransportOptions } from '@parley/transport';
import { CONSOLE_TOKEN_KEY, ConsoleEnvContext } from '../ConsoleContext';
import type { ConsoleEnv } from '../ConsoleContext';
import { createNotices } from '../notices';
import { ViewerContext } from '../Viewer';
import type { ConsoleViewer } from '../Viewer';

/** The GraphQL endpoint tests intercept with msw. */
export const TEST_GRAPHQL_URL = 'http://parley.test/graphql';

/** A test environment: a real transport (msw answers it) and a session, signed in with `token`. */
export async function createTestConsoleEnv(
  options: { token?: string | null; transport?: Partial<TransportOptions> } = {},
): Promise<ConsoleEnv> {
  const { transport, session } = createSessionTransport(
    { url: TEST_GRAPHQL_URL, retryDelaysMs: [], ...options.transport },
    CONSOLE_TOKEN_KEY,
  );
  await session.ready;
  if (options.token) await session.signIn(options.token);
  return { transport, session, window, notices: createNotices() };
}

/** The signed-in moderator tests use unless they say otherwise. */
export const TEST_MODERATOR: ConsoleViewer = {
  id: 'u-mod',
  username: 'moderator',
  email: 'moderator@example.com',
  role: 'MODERATOR',
  staffAccess: 'GRANTED',
};

/**
 * Renders `ui` inside the console's providers, at `path` of an in-memory router (its `history`
 * lets a test assert navigation), with `viewer` as the signed-in user when given.
 */
export function renderInConsole(
  ui: ReactNode,
  env: ConsoleEnv,
  { path = '/', viewer }: { path?: string; viewer?: ConsoleViewer } = {},
) {
  const location = memoryLocation({ path, record: true });
  const wrap = (children: ReactNode) => (
    <ConsoleEnvContext.Provider value={env}>
      <Provider value={env.transport.client}>
        <Router hook={location.hook}>
          {viewer ? (
            <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>
          ) : (
            children
          )}
        </Router>
      </Provider>
    </ConsoleEnvContext.Provider>
  );
  const result = render(wrap(ui));
  return { ...result, location, rerender: (next: ReactNode) => result.rerender(wrap(next)) };
}
