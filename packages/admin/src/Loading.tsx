import type { ReactNode } from 'react';

/** "Loading…" for routes and queries, announced politely. */
export function Loading({ children = 'Loading…' }: { children?: ReactNode }) {
  return (
    <p className="loading" role="status">
      {children}
    </p>
  );
}
