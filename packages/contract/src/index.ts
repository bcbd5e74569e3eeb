// What the server and the clients must agree on, written once: the error codes the server sends,
// the postMessage protocol between the host page, the stream frame and the sign-in popup, the
// account rules (their figures, pages and the rules themselves: validation.ts, comments.ts), the
// sign-in challenge's arithmetic, and the roles and suspension lengths moderators choose from.
// Nothing here runs on only one side, and this package imports no other workspace package.
export * from './errorCodes';
export * from './protocol';
export * from './accounts';
export * from './challenge';
export * from './text';
export * from './comments';
export * from './validation';
export * from './moderation';
export * from './limits';
export * from './locales.generated';
export * from './translate';
