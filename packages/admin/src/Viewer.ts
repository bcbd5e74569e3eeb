import { createContext, useContext } from 'react';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';

/** What the console reads of the signed-in user (SignedInArea's `ConsoleViewer` query). */
export const ConsoleViewerFields = graphql(
  `fragment ConsoleViewerFields on User { id username email role staffAccess }`,
);

/** The signed-in moderator or admin. */
export type ConsoleViewer = ResultOf<typeof ConsoleViewerFields>;

/** A role of a user (`Role`). */
export type Role = ConsoleViewer['role'];

/** The signed-in user inside the console's guarded routes. */
export const ViewerContext = createContext<ConsoleViewer | null>(null);

/** The signed-in moderator or admin; throws outside the guarded routes. */
export function useViewer(): ConsoleViewer {
  const viewer = useContext(ViewerContext);
  if (viewer === null) throw new Error('[parley] useViewer outside a signed-in route');
  return viewer;
}

/** True for admins (configure is theirs only). */
export function isAdmin(viewer: Pick<ConsoleViewer, 'role'> | null): boolean {
  return viewer?.role === 'ADMIN';
}
