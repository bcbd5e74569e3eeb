import { useSyncExternalStore } from 'react';
import type { SocketStatus } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';

/** What each status says (`console.moderate.live.<status>`); a status without text fails to compile. */
const TEXT = (status: SocketStatus): ConsoleMessageKey => `console.moderate.live.${status}`;

/** Whether the queue is live: a moderator must know when counts and arrivals may be stale. */
export function LiveStatus() {
  const { transport } = useConsoleEnv();
  const t = useT();
  const status = useSyncExternalStore(
    (listener) => transport.onStatusChange(listener),
    () => transport.status,
  );
  return (
    <p className={`mod-live mod-live-${status}`} role="status">
      {t(TEXT(status))}
    </p>
  );
}
