// One budget per shipped entry. Raising a budget needs a reason here.
//
// The urql parts the transport uses weigh 9.2 KB and the graphql-ws client 3.3 KB (rollup +
// terser, gzip): one chunk holding those, the socket supervision, storage and the error reporter
// would be about 21.5 KB. So the transport's first chunk holds what a client needs to fetch data
// (urql, retry, timeout, cache, mutation keys, the error shape), and the socket, the storage
// backends and the error reporter arrive by dynamic import on first use.
module.exports = [
  {
    name: '@parley/transport first chunk (urql, retry, timeout, cache, mutation keys)',
    path: 'packages/transport/dist/transport.js',
    // 15 KB until the session (the stored token both clients share: +0.2 KB) joined the transport.
    limit: '15.2 KB',
    gzip: true,
  },
  {
    // Everything the widget will load once it is live and keeping drafts; Sentry excluded.
    name: '@parley/transport with its socket and storage chunks (no Sentry)',
    path: [
      'packages/transport/dist/transport.js',
      'packages/transport/dist/chunks/createSocket-*.js',
      'packages/transport/dist/chunks/createStorage-*.js',
    ],
    // 22 KB until the transport checked server codes against the shared list (+0.3 KB in the
    // first chunk), so that an unknown code reads as INTERNAL instead of a code with no message.
    limit: '23 KB',
    gzip: true,
  },
];

module.exports.push(
  {
    name: 'embed.js (the host-page loader)',
    path: 'packages/embed/dist/embed.js',
    // The target is 1 KB. Everything else we ask of the loader does not fit in that: the
    // iframe with its parameters, the checked message protocol, height, theme with `auto`, SSO
    // login and refresh, permalinks with back/forward, events, data- attributes, viewport-lazy
    // rendering and remove() measure 1.68 KB; without the eight optional features (each 30–75 B)
    // it is still ~1.37 KB, and a hand-minified version of all of it 1.58 KB.
    limit: '1.75 KB',
    gzip: true,
  },
  {
    name: 'count.js',
    path: 'packages/embed/dist/count.js',
    // 700 B until issue 18: "N comments" in all 15 locales (locales/*/count.json, compiled in:
    // an extra request for the words would delay every count), their plural forms through
    // Intl.PluralRules and numbers through Intl.NumberFormat: 1.27 KB measured; 1.299 KB with
    // the tag matched by @parley/contract's toLocale, as the widget and the console match it.
    limit: '1.3 KB',
    gzip: true,
  },
  {
    // The latest comments of a site or a story in a host page element (issue 16: ≤ 1.5 KB).
    name: 'recent.js',
    path: 'packages/embed/dist/recent.js',
    limit: '1.5 KB',
    gzip: true,
  },
  {
    // What a reader downloads before the thread is painted: the loader, the frame's page, its
    // script and stylesheet, and the storage chunk (the stored token is read before the first
    // query). Live updates (the socket), the popup, the profile and moderator tabs, the Markdown
    // preview and Sentry load later, on demand.
    name: 'stream first render (embed.js + page + stream.js + CSS + storage chunk)',
    // The target is 30 KB. The mandated libraries alone take ~22 KB of it (the transport's
    // first chunk with urql, its cache and retries 15 KB, Preact + hooks 5 KB, @urql/preact 1 KB), plus the
    // storage chunk 2.6 KB (the token is read before the first query), embed.js 1.7 KB and the CSS
    // 1.5 KB: 28.5 KB before the thread and the composer (~11.5 KB). Live updates, the outbox,
    // SSO, the edit and report forms, the profile and moderator tabs with their text and CSS, the
    // Markdown preview, Spanish and Sentry already load on demand (bench/bundleSizes.ts).
    path: [
      'packages/embed/dist/embed.js',
      'packages/stream/dist/stream.html',
      'packages/stream/dist/assets/stream-*.js',
      'packages/stream/dist/assets/stream-*.css',
      'packages/stream/dist/assets/chunks/stream-createStorage-*.js',
    ],
    // 40 KB until issue 16's votes (▲ score ▼ and the Best sort), the pinned comment (its thread
    // in the first query, its place and badge) and images in comments (the Image button, paste and
    // drop; the upload itself is a chunk of its own) joined the thread: +0.16 KB measured, with a
    // little room. 40.5 KB until issue 17's guests: their badge, the bar's "Commenting as …
    // (guest)", the composer's hook that fetches the guest form (a chunk of its own, with the
    // guests' error texts) and posts the draft once the guest's session starts: +0.26 KB measured
    // (stream.js 34,205 → 34,460 bytes gzipped), with a little room. 40.75 KB until issue 18's
    // single-page hosts: the frame's `story` message (another story's thread in the same frame,
    // for @parley/react and `setStory`) and embed.js's `setStory`: +0.09 KB measured (40.73 →
    // 40.82; a lazy chunk for the handler weighed more than the handler inline). 40.85 KB until
    // issue 18's 15 locales: a loader a locale (each its own chunk, under one hashed folder so the
    // table compresses: a hash a chunk cost 107 B more), the locale's order (option, the site's
    // setting, the page's `lang`: embed.js's `lang` was paid for inside its own budget), tags
    // matched by language (`pt-PT` → `pt-BR`), `dir` for Arabic and Hebrew: +0.22 KB measured
    // (40.85 → 41.07). 41.1 KB until the not-permitted notice named the console's section as the
    // console now calls it in every language ("Configure → Organization and sites", not "Sites"),
    // and the translator moved to @parley/contract for the console to share it: 41.11 KB
    // measured; 41.13 KB once the catalog loading and the document's language were shared too.
    limit: '41.15 KB',
    gzip: true,
  },
  {
    // What arrives before the thread is visible: the loader and the frame's page as the server
    // renders it (the thread's HTML, its stylesheet inline, the answer to hydrate from), for the
    // read bench's story of 25 comments, 20 shown (scripts/streamPageSample.ts writes it).
    name: 'bytes before the thread is visible (embed.js + the rendered stream page)',
    path: ['packages/embed/dist/embed.js', 'packages/stream/dist/stream-page-sample.html'],
    limit: '12 KB',
    gzip: true,
  },
  {
    name: 'sign-in popup (/embed/auth)',
    path: ['packages/stream/dist/auth.html', 'packages/stream/dist/assets/auth-*.js'],
    limit: '30 KB',
    gzip: true,
  },
  {
    name: 'console initial JS (/admin)',
    path: ['packages/admin/dist/assets/main-*.js'],
    limit: '150 KB',
    gzip: true,
  },
);
