// `npm run build`, after the browser bundles: the server compiled to JavaScript, run with plain
// `node` (no transpiler at run time): packages/server/dist/parley.js, the `parley` command (the
// server package's `bin`), and packages/server/dist/main.js, what `npm start` runs (`parley
// start` plus the example host site). Parley's own packages (TypeScript, workspace links) are
// bundled in; every other package stays an import of node_modules, as installed, and must be a
// dependency of the server package (checked here: the tarball installs only those). Not
// minified: a stack trace in a log should read as the source does.
//
// Beside them go what the compiled server reads at run time (runtime/bundledFiles.ts):
// `contract/` (the schema, the trusted documents) and `clients/<client>/dist` (the widget's and
// the console's builds), so packages/server/dist is everything the package's tarball needs.
import { chmod, cp, mkdir, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const SERVER = 'packages/server';
const DIST = `${SERVER}/dist`;
/** The clients whose builds the server serves (see clientBuilds.ts). */
const CLIENTS = ['embed', 'stream', 'admin'];
const CONTRACT_FILES = ['schema.graphql', 'persisted-documents.json'];

/** A bare import (`graphql`, `node:fs`, `@parley/contract`): not a relative or absolute path. */
const BARE = /^[^./]/;
/** `graphql-ws/use/ws` → `graphql-ws`; `@scope/name/x` → `@scope/name`. */
const packageOf = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

await rm(DIST, { recursive: true, force: true });
const imported = new Set();
await build({
  entryPoints: [`${SERVER}/src/main.ts`, `${SERVER}/src/cli/parley.ts`],
  outdir: DIST,
  entryNames: '[name]',
  // Code the entries share goes to chunks, and what `parley` imports only to start the server
  // (runtime/startServer) loads only then: the other commands leave it out of memory.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // As `npm start` runs it (see the README). The young generation at 2 MB per semi-space:
  // measured by bench:read, 30 MB less memory after the read load, and no slower. The old
  // generation grown by at most half between full collections: measured by bench:scale, 10,000
  // readers connecting left ~200 MB of garbage that V8 returned only when the allocation rate
  // fell low enough (RSS 375–435 MB idle in some runs, 241 in others); with it, 259–266 MB in
  // every run, and the same CPU per comment posted (20 % cost 8 % more).
  banner: { js: '#!/usr/bin/env -S node --max-semi-space-size=2 --heap-growing-percent=50' },
  define: { PARLEY_BUNDLED: 'true' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'installed-packages-stay-external',
      setup(build) {
        build.onResolve({ filter: BARE }, ({ path }) => {
          if (path.startsWith('@parley/')) return undefined;
          if (!path.startsWith('node:') && !builtinModules.includes(path)) {
            imported.add(packageOf(path));
          }
          return { path, external: true };
        });
      },
    },
  ],
});
await chmod(`${DIST}/parley.js`, 0o755);

// What the compiled server imports must be what its package depends on.
const { dependencies = {} } = JSON.parse(await readFile(`${SERVER}/package.json`, 'utf8'));
const missing = [...imported].filter((name) => !(name in dependencies)).sort();
if (missing.length > 0) {
  console.error(`The compiled server imports packages ${SERVER}/package.json does not depend on:`);
  console.error(`  ${missing.join(', ')}`);
  process.exit(1);
}

await mkdir(`${DIST}/contract`, { recursive: true });
for (const file of CONTRACT_FILES) {
  await cp(`packages/contract/${file}`, `${DIST}/contract/${file}`);
}
for (const client of CLIENTS) {
  await cp(`packages/${client}/dist`, `${DIST}/clients/${client}/dist`, { recursive: true });
}
