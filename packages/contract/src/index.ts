// What the server and the clients must agree on, written once: the error codes the server sends
// and the postMessage protocol between the host page, the stream frame and the sign-in popup.
// Nothing here runs on only one side, and this package imports no other workspace package.
export * from './errorCodes';
export * from './protocol';
export * from './accounts';
