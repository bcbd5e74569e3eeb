import { screen } from '@testing-library/preact';
import type { StreamData, StreamEnv } from '../StreamContext';
import { Thread } from '../Thread';
import { createFakeSocketServer } from './createFakeSocket';
import { createTestEnv, renderInStream } from './createTestEnv';

const envs: StreamEnv[] = [];

/**
 * Renders the thread over `data` (the root query's answer), its live updates served by a fake
 * socket server. Call {@link disposeThreadEnvs} after each test.
 */
export function renderThread(
  data: StreamData,
  options: { featured?: boolean; commentID?: string } = {},
) {
  const live = createFakeSocketServer();
  const env = createTestEnv({
    transport: { WebSocket: live.WebSocket },
    params: { commentID: options.commentID },
  });
  envs.push(env);
  const onSortChange = jest.fn();
  renderInStream(
    <Thread featured={options.featured} sort="CREATED_AT_DESC" onSortChange={onSortChange} />,
    env,
    data,
  );
  return { env, live, onSortChange };
}

/** Has {@link disposeThreadEnvs} close `env`'s transport too. */
export function disposeLater(env: StreamEnv): StreamEnv {
  envs.push(env);
  return env;
}

/** Closes the transports (sockets, timers) of every thread rendered so far. */
export async function disposeThreadEnvs(): Promise<void> {
  await Promise.all(envs.splice(0).map((env) => env.transport.dispose()));
}

/** The article of the comment by `username`. */
export const articleBy = (username: string) =>
  screen.getByRole('article', { name: `Comment by ${username}` });
