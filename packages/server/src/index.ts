/**
 * `@parley/server`: build and run a Parley server in a process of your own (the e2e harness, the
 * benchmarks, the examples) — the server itself, its configuration, the client builds it serves,
 * and the runtime pieces (HTTP server, logger, metrics) a demo can reuse with its own schema.
 * Test fixtures live in `@parley/server/testing`.
 */
// A program that reaches the server only through this entry (examples, e2e, bench) must get the
// declaration of an untyped dependency with it; an ambient `declare module` file cannot be
// imported, so it is referenced.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./types/unicode-confusables.d.ts" />
export { createParleyServer } from './createParleyServer';
export type { ParleyServer } from './createParleyServer';
export { loadConfig } from './runtime/loadConfig';
export { CLIENT_BUILDS, builtClientRoutes, routePath } from './clientBuilds';
export { createHttpServer } from './runtime/createHttpServer';
export type { HttpServer } from './runtime/createHttpServer';
export { createLogger } from './runtime/createLogger';
export { createMetrics } from './runtime/createMetrics';
