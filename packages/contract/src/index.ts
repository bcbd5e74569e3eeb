// What the server and the clients must agree on, written once: the error codes the server sends,
// the postMessage protocol between the host page, the stream frame and the sign-in popup, the
// account rules' figures and pages, and the sign-in challenge's arithmetic.
// Nothing here runs on only one side, and this package imports no other workspace package.
export * from './errorCodes';
export * from './protocol';
export * from './accounts';
export * from './challenge';
