// One config for every browser bundle Parley ships. Type-checking is `tsc --noEmit` (npm test),
// not part of the build: esbuild only strips types, terser minifies.
import alias from '@rollup/plugin-alias';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
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
    target: 'es2021',
    tsconfig: here('tsconfig.base.json'),
    jsx: 'automatic',
    jsxImportSource: ui,
  }),
  // Every output is ES2021 (a module, or an IIFE of modern syntax: `??=` is shorter than its
  // ES2020 spelling; every browser with the ES2022 `Object.hasOwn` the protocol checks use has it); `pure_getters`: no property
  // read of ours has an effect (nothing reads `offsetHeight` to force a layout); `unsafe_arrows`:
  // no function expression is called with `new`. The three gave the stream's first render 120 B,
  // which the trusted documents' ids and their error text needed (the e2e journeys run on this).
  terser({
    ecma: 2021,
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
      'examples/react-app/dist',
      'packages/embed/dist',
      'packages/stream/dist',
      'packages/admin/dist',
    ]) {
  rmSync(here(dir), { recursive: true, force: true });
}

/**
 * What the builds' pages name: the stream's build records its stylesheet here, and the popup's
 * build (next in the list: rollup builds the configs in order) links it from its page.
 */
const built = {};

/**
 * Emits a folder's CSS (see {@link joinCss}) under a name with a hash of its content
 * (`assets/stream-1a2B3c4D.css`: rollup's `assetFileNames`) and returns the name it got.
 */
function emitCss(context, name, dir) {
  const ref = context.emitFile({ type: 'asset', name: `${name}.css`, source: joinCss(dir) });
  return context.getFileName(ref);
}

/** The file name of the build's entry chunk `name`. */
const entryFile = (bundle, name) =>
  Object.values(bundle).find((o) => o.type === 'chunk' && o.isEntry && o.name === name).fileName;

/** Emits `page` of the folder `src`, filled by {@link fillPage}, under its own name. */
const emitPage = (context, src, page, names) =>
  context.emitFile({ type: 'asset', fileName: page, source: fillPage(src + page, names) });

/**
 * `page` (an HTML file of `src`) with its comments and indentation gone and its `{{name}}`
 * placeholders replaced by `names[name]`: the hashed names the build gave its files.
 */
function fillPage(page, names) {
  return minifyHtml(page).replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in names)) throw new Error(`${page} names {{${key}}}, which the build did not make`);
    return names[key];
  });
}

/**
 * Emits the stream's page and stylesheets: stream.css (styles/, the first render) and
 * panels.css (styles/panels/, added by the lazy panels when they load, found through the link's
 * `data-panels`). Also `stream-files.json`, which tells the server's renderer (streamPage.ts) the
 * hashed names it needs: the stylesheet it inlines and the chunks the page preloads.
 */
const streamPages = {
  name: 'parley-stream-pages',
  generateBundle(options, bundle) {
    const src = here('packages/stream/src/');
    const names = {
      css: (built.streamCss = emitCss(this, 'stream', src + 'styles')),
      panels: emitCss(this, 'panels', src + 'styles/panels'),
      js: entryFile(bundle, 'stream'),
    };
    emitPage(this, src, 'stream.html', names);
    // Chunks the hydration loads before it can run (the stored token is read first): the
    // rendered page names them up front, so they download beside stream.js, not after it.
    const preload = Object.values(bundle)
      .filter(
        (o) => o.type === 'chunk' && /^assets\/chunks\/stream-createStorage-/.test(o.fileName),
      )
      .map((o) => o.fileName);
    this.emitFile({
      type: 'asset',
      fileName: 'stream-files.json',
      // And where each locale's catalog is (`<catalogs>/<locale>.js`): the page of a reader of
      // another language preloads theirs too.
      source: JSON.stringify({ css: names.css, preload, catalogs: CATALOGS_DIR }),
    });
  },
};

/** Emits the sign-in popup's page and stylesheet (styles/popup/, after the stream's). */
const authPages = {
  name: 'parley-auth-pages',
  generateBundle(options, bundle) {
    const src = here('packages/stream/src/');
    const names = {
      css: built.streamCss,
      auth: emitCss(this, 'auth', src + 'styles/popup'),
      js: entryFile(bundle, 'auth'),
    };
    emitPage(this, src, 'auth.html', names);
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

/**
 * A page without its comments, the line breaks and indentation between its tags, and the ` /` of
 * void elements (`<meta … />`: HTML ignores it).
 */
const minifyHtml = (file) =>
  readFileSync(file, 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/>\s*\n\s*</g, '><')
    .replace(/ \/>/g, '>')
    .trim();

/** Emits the console's page and stylesheet. */
const consolePage = {
  name: 'parley-console-page',
  generateBundle(options, bundle) {
    const src = here('packages/admin/src/');
    const names = { css: emitCss(this, 'admin', src + 'styles'), js: entryFile(bundle, 'main') };
    emitPage(this, src, 'index.html', names);
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

/**
 * The catalogs' folder name: a hash of every compiled catalog (packages/stream/src/messages/
 * locales/, data only), so each locale's chunk is `assets/catalogs-<hash>/<locale>.js`. The
 * first render's table of loaders then repeats one prefix and differs by the locale alone, which
 * compresses to a few bytes a locale (a hash a chunk cost 20), and a changed catalog is still a
 * new name browsers never had.
 */
const CATALOGS_DIR = (() => {
  const dir = here('packages/stream/src/messages/locales/');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(dir + file));
  // And what turns them into bytes: this config and every tool's version (the lock file), so a
  // new minifier's output is a new name too, never other bytes under a name kept for a year.
  hash
    .update(readFileSync(here('rollup.config.js')))
    .update(readFileSync(here('package-lock.json')));
  return `assets/catalogs-${hash.digest('hex').slice(0, 10)}`;
})();

/** Fails the build when a catalog chunk imports anything: its name would not change with it. */
const catalogsStandAlone = {
  name: 'parley-catalogs-stand-alone',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk' && chunk.fileName.startsWith(CATALOGS_DIR) && chunk.imports.length)
        this.error(`${chunk.fileName} imports ${chunk.imports.join(', ')}: catalogs are data only`);
    }
  },
};

/** The stream's own rollup builds: one per page, so they share no chunk (each budget is exact). */
const streamBuild = (name, extra = []) => ({
  input: { [name]: here(`packages/stream/src/${name}.tsx`) },
  output: {
    dir: here('packages/stream/dist'),
    format: 'es',
    // Every name carries a hash of its content, so the server can let browsers and CDNs keep
    // them for a year (serveStatic.ts): a new build is new names, which the pages name.
    entryFileNames: 'assets/[name]-[hash].js',
    chunkFileNames: (chunk) =>
      chunk.facadeModuleId?.includes('/messages/locales/')
        ? `${CATALOGS_DIR}/[name].js`
        : `assets/chunks/${name}-[name]-[hash].js`,
    assetFileNames: 'assets/[name]-[hash][extname]',
  },
  plugins: [...plugins(), ...extra, catalogsStandAlone, precompress],
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
      entryFileNames: 'assets/[name]-[hash].js',
      chunkFileNames: 'assets/chunks/[name]-[hash].js',
      assetFileNames: 'assets/[name]-[hash][extname]',
    },
    plugins: [...plugins({ ui: 'react' }), consolePage, precompress],
  },
  embedBuild('embed'),
  embedBuild('count'),
  embedBuild('recent'),
  streamBuild('stream', [streamPages]),
  streamBuild('auth', [authPages]),
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
  // The React example app (@parley/react on React itself), served by the example host at /app.
  {
    input: { app: here('examples/react-app/main.tsx') },
    output: {
      dir: here('examples/react-app/dist'),
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
    plugins: plugins({ ui: 'react' }),
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
