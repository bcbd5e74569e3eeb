import { createContext, useContext } from 'react';

/** A role of a user. */
export type Role = 'COMMENTER' | 'STAFF' | 'MODERATOR' | 'ADMIN';

/** The signed-in moderator or admin. */
export interface ConsoleViewer {
  id: string;
  username: string;
  email: string | null;
  role: Role;
}

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
