import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the built client folders are found from it). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * URL prefix → built file or folder of each client (`npm run build`). A prefix naming a file
 * serves that file (`/embed.js`); a folder serves what is inside it.
 */
export const CLIENT_BUILDS: Readonly<Record<string, string>> = {
  '/embed.js': join(REPOSITORY_ROOT, 'packages/embed/dist/embed.js'),
  '/count.js': join(REPOSITORY_ROOT, 'packages/embed/dist/count.js'),
  '/embed/stream': join(REPOSITORY_ROOT, 'packages/stream/dist/stream.html'),
  '/embed/auth': join(REPOSITORY_ROOT, 'packages/stream/dist/auth.html'),
  '/embed/assets': join(REPOSITORY_ROOT, 'packages/stream/dist/assets'),
};

/** The client routes whose build exists, for `createParleyServer({ staticRoutes })`. */
export function builtClientRoutes(): Record<string, string> {
  return Object.fromEntries(Object.entries(CLIENT_BUILDS).filter(([, path]) => existsSync(path)));
}
