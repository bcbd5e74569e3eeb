import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set to `true` by scripts/buildServer.mjs in the compiled server; undeclared in the sources. */
declare const PARLEY_BUNDLED: boolean | undefined;

/**
 * Where the compiled server (packages/server/dist/, also what the package's tarball installs)
 * keeps what it reads at run time: `contract/` (the schema, the trusted documents) and `clients/`
 * (the widget's and the console's builds), copied there by the build. Undefined when the server
 * runs from its TypeScript sources (tsx, Jest), which read them where the workspace has them.
 */
export const BUNDLE_DIR: string | undefined =
  typeof PARLEY_BUNDLED !== 'undefined' && PARLEY_BUNDLED
    ? // This module may be compiled into a shared chunk (dist/chunks/, see buildServer.mjs).
      dirname(fileURLToPath(import.meta.url)).replace(/[\\/]chunks$/, '')
    : undefined;

/** The files of `@parley/contract` the server reads at run time. */
export type ContractFile = 'schema.graphql' | 'persisted-documents.json';

/**
 * The path of a `@parley/contract` file: found as Node finds the package, or in the compiled
 * server's `contract/` folder (the package is bundled in, its files copied beside it).
 */
export function contractFile(name: ContractFile): string {
  return BUNDLE_DIR
    ? join(BUNDLE_DIR, 'contract', name)
    : createRequire(import.meta.url).resolve(`@parley/contract/${name}`);
}
