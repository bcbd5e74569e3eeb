import type { ReactNode } from 'react';
import { useT } from './i18n';

/** "Loading…" for routes and queries, announced politely. */
export function Loading({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <p className="loading" role="status">
      {children === undefined ? t('console.shell.loading') : children}
    </p>
  );
}
