/**
 * `@parley/server/testing`: what tests and benchmarks use to set up data straight in a running
 * server's storage (`server.deps.db`) — install, users, stories, comments — and to read the mail
 * it filed in its data folder's outbox. Never imported by the server itself.
 */
// A program that reaches the server only through this entry (examples, e2e, bench) must get the
// declaration of an untyped dependency with it; an ambient `declare module` file cannot be
// imported, so it is referenced.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./types/unicode-confusables.d.ts" />
export { install } from './db/store/organization';
export { createUser } from './db/store/users';
export { findOrCreateStory } from './db/store/stories';
export { createComment } from './db/store/comments';
export { hashPassword } from './auth/passwords';
export { totpCode } from './auth/twoFactor';
export { renderComment } from './markdown/renderComment';
export {
  matchFromOutbox,
  SIGN_UP_CODE_LINE,
  signUpCodeFromOutbox,
} from './runtime/testing/readOutbox';
export { freePort } from './runtime/testing/freePort';
export { answerChallenges, solveChallengeSync } from './auth/testing/answerChallenges';
export { parleyNodeFlags, startParley } from './runtime/testing/postingClients';
export type { RunningParley } from './runtime/testing/postingClients';
