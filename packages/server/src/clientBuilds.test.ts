import { CLIENT_BUILDS } from './clientBuilds';

describe('CLIENT_BUILDS', () => {
  it('lets only the stream be framed: the popup, the console and the account pages may not be', () => {
    const framing = Object.fromEntries(
      Object.entries(CLIENT_BUILDS).map(([prefix, target]) => [
        prefix,
        typeof target !== 'string' && target.noFraming === true,
      ]),
    );
    expect(framing).toMatchObject({
      '/embed/stream': false,
      '/embed/auth': true,
      '/admin': true,
      '/install': true,
      '/account': true,
    });
  });
});
