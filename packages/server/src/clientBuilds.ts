import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_DIR } from './runtime/bundledFiles';
import type { AppRoute } from './runtime/serveStatic';

/** The repository root (the example host site's pages are found from it). */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Where the clients' builds are: `packages/<client>/dist` of the workspace, or, in the compiled
 * server, `clients/<client>/dist` beside it (the build copies them, so its tarball holds them).
 */
const CLIENTS = BUNDLE_DIR ? join(BUNDLE_DIR, 'clients') : join(REPOSITORY_ROOT, 'packages');

/** The console's build, served as a single-page app. */
const CONSOLE_APP: AppRoute = {
  root: join(CLIENTS, 'admin/dist'),
  fallback: 'index.html',
  noFraming: true,
  isolated: true,
};

/**
 * URL prefix → built file or folder of each client (`npm run build`). A prefix naming a file
 * serves that file (`/embed.js`); a folder serves what is inside it.
 */
export const CLIENT_BUILDS: Readonly<Record<string, string | AppRoute>> = {
  '/embed.js': join(CLIENTS, 'embed/dist/embed.js'),
  '/count.js': join(CLIENTS, 'embed/dist/count.js'),
  '/recent.js': join(CLIENTS, 'embed/dist/recent.js'),
  '/embed/stream': join(CLIENTS, 'stream/dist/stream.html'),
  // The sign-in popup opens as a window of its own; framed, a site could dress it up to phish.
  '/embed/auth': { root: join(CLIENTS, 'stream/dist/auth.html'), noFraming: true },
  '/embed/assets': join(CLIENTS, 'stream/dist/assets'),
  // The console, its install wizard and the account pages are one app, never framed.
  '/admin': CONSOLE_APP,
  '/install': CONSOLE_APP,
  '/account': CONSOLE_APP,
};

/** The stream's files for its server-rendered page (streamPage.ts), from `npm run build`. */
export const STREAM_PAGE_FILES = Object.freeze({
  renderer: join(CLIENTS, 'stream/dist/ssr.js'),
  template: CLIENT_BUILDS['/embed/stream'] as string,
  names: join(CLIENTS, 'stream/dist/stream-files.json'),
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
