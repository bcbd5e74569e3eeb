// One config for every browser bundle Parley ships. Type-checking is `tsc --noEmit` (npm test),
// not part of the build: esbuild only strips types, terser minifies.
import alias from '@rollup/plugin-alias';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'rollup-plugin-esbuild';
import { transformSync } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** `ui: 'preact'` (the widget: React code runs on Preact, for size) or `'react'` (the console). */
const plugins = ({ ui = 'preact' } = {}) => [
  ...(ui === 'preact'
    ? [
        alias({
          entries: [
            { find: /^react(-dom)?$/, replacement: 'preact/compat' },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
          ],
        }),
      ]
    : []),
  replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': '"production"' } }),
  nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.mjs', '.js'] }),
  commonjs(),
  esbuild({
    target: 'es2020',
    tsconfig: here('tsconfig.base.json'),
    jsx: 'automatic',
    jsxImportSource: ui,
  }),
  // Every output is ES2020 (a module, or an IIFE of modern syntax); `pure_getters`: no property
  // read of ours has an effect (nothing reads `offsetHeight` to force a layout); `unsafe_arrows`:
  // no function expression is called with `new`. The three gave the stream's first render 120 B,
  // which the trusted documents' ids and their error text needed (the e2e journeys run on this).
  terser({
    ecma: 2020,
    module: true,
    compress: { passes: 3, pure_getters: true, unsafe_arrows: true },
    format: { comments: false },
  }),
];

// Output folders are emptied first: chunk names carry hashes, and stale chunks would be counted
// by the size budgets' globs and served by mistake.
// PARLEY_KEEP_DIST=1: leave them (a script that only generates bundles in memory to measure them).
for (const dir of process.env.PARLEY_KEEP_DIST
  ? []
  : [
      'packages/transport/dist',
      'examples/transport-demo/dist',
      'examples/host/dist',
      'packages/embed/dist',
      'packages/stream/dist',
      'packages/admin/dist',
    ]) {
  rmSync(here(dir), { recursive: true, force: true });
}

/**
 * Emits the stream's HTML pages and its stylesheets, each the CSS files of one folder joined in
 * name order: stream.css (styles/, the first render), auth.css (styles/popup/, the sign-in popup,
 * after stream.css) and panels.css (styles/panels/, added by the lazy panels when they load).
 */
const streamPages = {
  name: 'parley-stream-pages',
  generateBundle() {
    const src = here('packages/stream/src/');
    for (const page of ['stream.html', 'auth.html']) {
      this.emitFile({ type: 'asset', fileName: page, source: minifyHtml(src + page) });
    }
    // Comments and indentation cost bytes on every first render; the rules stay as written.
    for (const [name, dir] of [
      ['stream', 'styles'],
      ['auth', 'styles/popup'],
      ['panels', 'styles/panels'],
    ]) {
      this.emitFile({ type: 'asset', fileName: `assets/${name}.css`, source: joinCss(src + dir) });
    }
  },
};

/** Joins a folder's CSS files in name order, minified by esbuild (it builds the scripts too). */
const joinCss = (dir) =>
  transformSync(
    readdirSync(dir)
      .filter((name) => name.endsWith('.css'))
      .sort()
      .map((name) => readFileSync(`${dir}/${name}`, 'utf8'))
      .join('\n'),
    { loader: 'css', minify: true },
  ).code.trim();

/** A page without its comments and the line breaks and indentation between its tags. */
const minifyHtml = (file) =>
  readFileSync(file, 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s*\n\s*</g, '><')
    .trim();

/** Emits the console's page and stylesheet. */
const consolePage = {
  name: 'parley-console-page',
  generateBundle() {
    const src = here('packages/admin/src/');
    this.emitFile({
      type: 'asset',
      fileName: 'index.html',
      source: minifyHtml(src + 'index.html'),
    });
    this.emitFile({ type: 'asset', fileName: 'assets/admin.css', source: joinCss(src + 'styles') });
  },
};

/** Kinds of files worth compressing (the images a bundle could hold are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|map|txt)$/;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file of a
 * build the server serves, once, at build time: the server picks one by `Accept-Encoding` and never
 * compresses per request.
 */
const precompress = {
  name: 'parley-precompress',
  writeBundle(options, bundle) {
    const dir = options.dir ?? dirname(options.file);
    for (const [fileName, output] of Object.entries(bundle)) {
      if (!COMPRESSIBLE.test(fileName)) continue;
      const path = `${dir}/${fileName}`;
      const source = Buffer.from(output.type === 'chunk' ? output.code : output.source);
      writeFileSync(
        `${path}.br`,
        brotliCompressSync(source, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
      );
      writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
    }
  },
};

/** The stream's own rollup builds: one per page, so they share no chunk (each budget is exact). */
const streamBuild = (name, extra = []) => ({
  input: { [name]: here(`packages/stream/src/${name}.tsx`) },
  output: {
    dir: here('packages/stream/dist'),
    format: 'es',
    entryFileNames: 'assets/[name].js',
    chunkFileNames: `assets/chunks/${name}-[name]-[hash].js`,
  },
  plugins: [...plugins(), ...extra, precompress],
});

/** The host-page scripts: classic scripts (IIFE), since site owners paste a plain `<script>`. */
const embedBuild = (name) => ({
  input: here(`packages/embed/src/${name}.ts`),
  output: { file: here(`packages/embed/dist/${name}.js`), format: 'iife' },
  plugins: [...plugins(), precompress],
});

export default [
  // The console: React, each route its own chunk.
  {
    input: { main: here('packages/admin/src/main.tsx') },
    output: {
      dir: here('packages/admin/dist'),
      format: 'es',
      entryFileNames: 'assets/[name].js',
      chunkFileNames: 'assets/chunks/[name]-[hash].js',
    },
    plugins: [...plugins({ ui: 'react' }), consolePage, precompress],
  },
  embedBuild('embed'),
  embedBuild('count'),
  streamBuild('stream', [streamPages]),
  streamBuild('auth'),
  // The stream for the server: the same components, rendered to HTML (one file, no chunks: the
  // server imports it once).
  {
    input: here('packages/stream/src/ssr.tsx'),
    output: { file: here('packages/stream/dist/ssr.js'), format: 'es', inlineDynamicImports: true },
    plugins: plugins(),
  },
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
