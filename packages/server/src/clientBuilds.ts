import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppRoute } from './runtime/serveStatic';

/** The repository root (the built client folders are found from it). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The console's build, served as a single-page app. */
const CONSOLE_APP: AppRoute = {
  root: join(REPOSITORY_ROOT, 'packages/admin/dist'),
  fallback: 'index.html',
  noFraming: true,
};

/**
 * URL prefix → built file or folder of each client (`npm run build`). A prefix naming a file
 * serves that file (`/embed.js`); a folder serves what is inside it.
 */
export const CLIENT_BUILDS: Readonly<Record<string, string | AppRoute>> = {
  '/embed.js': join(REPOSITORY_ROOT, 'packages/embed/dist/embed.js'),
  '/count.js': join(REPOSITORY_ROOT, 'packages/embed/dist/count.js'),
  '/embed/stream': join(REPOSITORY_ROOT, 'packages/stream/dist/stream.html'),
  // The sign-in popup opens as a window of its own; framed, a site could dress it up to phish.
  '/embed/auth': { root: join(REPOSITORY_ROOT, 'packages/stream/dist/auth.html'), noFraming: true },
  '/embed/assets': join(REPOSITORY_ROOT, 'packages/stream/dist/assets'),
  // The console, its install wizard and the account pages are one app, never framed.
  '/admin': CONSOLE_APP,
  '/install': CONSOLE_APP,
  '/account': CONSOLE_APP,
};

/** The stream's files for its server-rendered page (streamPage.ts), from `npm run build`. */
export const STREAM_PAGE_FILES = Object.freeze({
  renderer: join(REPOSITORY_ROOT, 'packages/stream/dist/ssr.js'),
  template: CLIENT_BUILDS['/embed/stream'] as string,
  names: join(REPOSITORY_ROOT, 'packages/stream/dist/stream-files.json'),
});

/** The file or folder a route serves. */
export function routePath(target: string | AppRoute): string {
  return typeof target === 'string' ? target : target.root;
}

/** The client routes whose build exists, for `createParleyServer({ staticRoutes })`. */
export function builtClientRoutes(): Record<string, string | AppRoute> {
  return Object.fromEntries(
    Object.entries(CLIENT_BUILDS).filter(([, target]) => existsSync(routePath(target))),
  );
}
