// `npm run build`, after the browser bundles: the server compiled to JavaScript, run with plain
// `node` (no transpiler at run time): packages/server/dist/parley.js, the `parley` command (the
// server package's `bin`), and packages/server/dist/main.js, what `npm start` runs (`parley
// start` plus the example host site). Parley's own packages (TypeScript, workspace links) are bundled in;
// every other package stays an import of node_modules, as installed. Not minified: a stack trace
// in a log should read as the source does.
import { chmod } from 'node:fs/promises';
import { build } from 'esbuild';

/** A bare import (`graphql`, `node:fs`, `@parley/contract`): not a relative or absolute path. */
const BARE = /^[^./]/;

await build({
  entryPoints: ['packages/server/src/main.ts', 'packages/server/src/cli/parley.ts'],
  outdir: 'packages/server/dist',
  entryNames: '[name]',
  banner: { js: '#!/usr/bin/env node' },
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
        build.onResolve({ filter: BARE }, ({ path }) =>
          path.startsWith('@parley/') ? undefined : { path, external: true },
        );
      },
    },
  ],
});
await chmod('packages/server/dist/parley.js', 0o755);
