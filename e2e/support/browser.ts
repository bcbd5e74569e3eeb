// What the e2e harness and the stream bench share to run Debian's Chromium against servers on
// 127.0.0.1: where the repository is, how Chromium starts, and how a port is picked.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/**
 * The repository root, from this file's URL: tsx runs it as ESM and Jest's swc transform rewrites
 * `import.meta.url` for CommonJS, so neither needs `__dirname`.
 */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Debian's Chromium (never the `playwright` package: it downloads browsers). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** As root Chromium needs --no-sandbox; the rest keep it off the closed network. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Launches headless Chromium at CHROMIUM_PATH with CHROMIUM_ARGS. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

/** A port free right now on 127.0.0.1 (the servers' own helper). */
export { freePort } from '@parley/server/testing';
