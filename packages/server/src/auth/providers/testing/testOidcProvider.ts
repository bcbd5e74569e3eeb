/**
 * A genuine OpenID Connect provider for tests (`oidc-provider`, the certified implementation),
 * on 127.0.0.1 with its development login and consent pages: any login signs in, with any
 * password. A login's claims: `sub` = the login, `email` = `<login>@idp.example` (verified, unless
 * the login starts with `unverified`), `preferred_username` = the login.
 */
import type { Server } from 'node:http';
import Provider from 'oidc-provider';

/** Where a test reaches its provider. */
export interface TestOidcProvider {
  /** The issuer URL (no trailing slash). */
  issuer: string;
  /** Stops the provider. */
  close(): Promise<void>;
}

/** Options of {@link startTestOidcProvider}. */
export interface TestOidcProviderOptions {
  port: number;
  clientId: string;
  clientSecret: string;
  /** The redirect (callback) URLs registered for the client. */
  redirectUris: string[];
}

/** The address a login's account has at the test provider. */
export function testProviderEmail(login: string): string {
  return `${login}@idp.example`;
}

/** Starts the provider; resolves once it listens. */
export async function startTestOidcProvider(
  options: TestOidcProviderOptions,
): Promise<TestOidcProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'name'],
    },
    pkce: { required: () => true },
    // Lifetimes set (not left to the defaults, which it notices on every use), in seconds.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: testProviderEmail(id),
        email_verified: !id.startsWith('unverified'),
        preferred_username: id,
        name: id,
      }),
    }),
  });
  // Its pages are http: cookies without `Secure`, or the browser would drop them.
  provider.proxy = false;
  const server: Server = provider.listen(options.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
