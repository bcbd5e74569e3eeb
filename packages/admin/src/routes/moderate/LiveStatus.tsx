import { useSyncExternalStore } from 'react';
import type { SocketStatus } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';

const TEXT: Record<SocketStatus, string> = {
  idle: 'Live updates starting…',
  connecting: 'Connecting live updates…',
  connected: 'Live',
  reconnecting: 'Reconnecting… counts may be behind',
  offline: 'Offline: counts and new comments are paused',
};

/** Whether the queue is live: a moderator must know when counts and arrivals may be stale. */
export function LiveStatus() {
  const { transport } = useConsoleEnv();
  const status = useSyncExternalStore(
    (listener) => transport.onStatusChange(listener),
    () => transport.status,
  );
  return (
    <p className={`mod-live mod-live-${status}`} role="status">
      {TEXT[status]}
    </p>
  );
}
