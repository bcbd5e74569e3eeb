// One budget per shipped entry (STYLE.md guideline 11). Raising a budget needs a reason here.
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
    limit: '15 KB',
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
