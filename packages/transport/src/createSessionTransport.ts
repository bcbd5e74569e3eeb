import { createSession } from './createSession';
import type { Session } from './createSession';
import { createTransport } from './createTransport';
import type { Transport, TransportOptions } from './types';

/** A transport and the session whose token it sends. */
export interface SessionTransport {
  transport: Transport;
  session: Session;
}

/**
 * A transport whose token is the session's, the session kept in that transport's own storage
 * under `key`. Requests wait for the stored token to be read, so the first query after a reload
 * already runs as the signed-in user.
 */
export function createSessionTransport(
  options: Omit<TransportOptions, 'getToken'>,
  key: string,
): SessionTransport {
  // The session needs the transport's storage and the transport the session's token.
  const holder: { session?: Session } = {};
  const transport = createTransport({
    ...options,
    getToken: async () => {
      await holder.session?.ready;
      return holder.session?.getToken() ?? null;
    },
  });
  const session = (holder.session = createSession(transport.storage, key));
  return { transport, session };
}
