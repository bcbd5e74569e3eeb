// One config for every browser bundle Parley ships. Type-checking is `tsc --noEmit` (npm test),
// not part of the build: esbuild only strips types, terser minifies (STACK.md).
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import esbuild from 'rollup-plugin-esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Workspace packages resolve to their sources, as in tsconfig `paths` and Jest. */
const workspace = {
  name: 'parley-workspace',
  resolveId(source) {
    if (source === '@parley/transport') return here('packages/transport/src/index.ts');
    if (source === '@parley/server/error-codes') return here('packages/server/src/errorCodes.ts');
    return null;
  },
};

const plugins = () => [
  workspace,
  replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': '"production"' } }),
  nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.mjs', '.js'] }),
  commonjs(),
  esbuild({ target: 'es2020', tsconfig: here('tsconfig.base.json') }),
  terser({ compress: { passes: 2 }, format: { comments: false } }),
];

// Output folders are emptied first: chunk names carry hashes, and stale chunks would be counted
// by the size budgets' globs and served by mistake.
for (const dir of [
  'packages/transport/dist',
  'examples/transport-demo/dist',
  'examples/host/dist',
]) {
  rmSync(here(dir), { recursive: true, force: true });
}

export default [
  // The transport as the widget bundles it. Sentry is reached only through a dynamic import,
  // so it lands in its own chunk and the entry chunk never contains it.
  {
    input: { transport: here('packages/transport/src/index.ts') },
    output: {
      dir: here('packages/transport/dist'),
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
    plugins: plugins(),
  },
  // The example host page's stand-in thread (until embed.js), served by the Parley server.
  {
    input: { thread: here('examples/host/thread.ts') },
    output: {
      dir: here('examples/host/dist'),
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
    plugins: plugins(),
  },
  // The transport demo (its browser test and the bench use it).
  {
    input: { client: here('examples/transport-demo/client.ts') },
    output: {
      dir: here('examples/transport-demo/dist'),
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
    plugins: plugins(),
  },
];
