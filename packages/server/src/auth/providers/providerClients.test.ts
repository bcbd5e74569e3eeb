import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { GITHUB, GOOGLE_ISSUER, forgetDiscoveries, providerClient } from './providerClients';
import type { FlowSecrets, ProviderSettings } from './providerClients';
import { ParleyError } from '../../ParleyError';

// GitHub and Google against stand-ins that answer as they do (the shapes of their documented
// responses); the OpenID Connect path end to end is tested against a real provider
// (__integration-tests__/providerSignIn.test.ts).

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  forgetDiscoveries();
});
afterAll(() => server.close());

const REDIRECT = 'https://comments.example/auth/providers/p1/callback';
const FLOW: FlowSecrets = { state: 'state-123', codeVerifier: 'v'.repeat(43), nonce: 'nonce-456' };

function settings(kind: ProviderSettings['kind']): ProviderSettings {
  return {
    id: `p-${kind}`,
    kind,
    issuerUrl: '',
    clientId: 'client-id',
    clientSecret: 'client-secret',
    redirectUri: REDIRECT,
  };
}

function callback(params: Record<string, string>): URL {
  return new URL(`${REDIRECT}?${new URLSearchParams(params)}`);
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    const { toSignInError } = await import('./providerClients');
    return toSignInError(error).code;
  }
  return undefined;
}

describe('GitHub', () => {
  const github = () => providerClient(settings('GITHUB'));
  let tokenRequests: URLSearchParams[];

  function answerAs(emails: { email: string; primary: boolean; verified: boolean }[]) {
    tokenRequests = [];
    server.use(
      http.post(GITHUB.token, async ({ request }) => {
        tokenRequests.push(new URLSearchParams(await request.text()));
        return HttpResponse.json({
          access_token: 'gho_token',
          token_type: 'bearer',
          scope: 'read:user,user:email',
        });
      }),
      http.get(`${GITHUB.api}/user`, ({ request }) =>
        request.headers.get('authorization') === 'Bearer gho_token'
          ? HttpResponse.json({ id: 583231, login: 'octocat', name: 'The Octocat' })
          : HttpResponse.json({ message: 'Bad credentials' }, { status: 401 }),
      ),
      http.get(`${GITHUB.api}/user/emails`, () => HttpResponse.json(emails)),
    );
  }

  it('sends the reader to GitHub with state and a PKCE challenge', async () => {
    const url = await github().authorizationUrl(FLOW);
    expect(url.origin + url.pathname).toBe(GITHUB.authorize);
    expect(url.searchParams.get('state')).toBe(FLOW.state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('scope')).toBe('read:user user:email');
  });

  it('says who signed in: the id, the login, the primary address when verified', async () => {
    answerAs([
      { email: 'other@example.com', primary: false, verified: true },
      { email: 'octocat@github.com', primary: true, verified: true },
    ]);
    const profile = await github().finish(callback({ code: 'c0de', state: FLOW.state }), FLOW);
    expect(profile).toEqual({
      subject: '583231',
      email: 'octocat@github.com',
      nameHint: 'octocat',
    });
    expect(tokenRequests[0]?.get('code')).toBe('c0de');
    expect(tokenRequests[0]?.get('code_verifier')).toBe(FLOW.codeVerifier);
  });

  it('gives no address when the primary one is not verified', async () => {
    answerAs([{ email: 'octocat@github.com', primary: true, verified: false }]);
    const profile = await github().finish(callback({ code: 'c0de', state: FLOW.state }), FLOW);
    expect(profile.email).toBeNull();
  });

  it('codes each failure', async () => {
    // Denied on GitHub's consent page.
    expect(
      await codeOf(github().finish(callback({ error: 'access_denied', state: FLOW.state }), FLOW)),
    ).toBe('SIGN_IN_DENIED');
    // Another flow's state.
    expect(await codeOf(github().finish(callback({ code: 'c', state: 'other' }), FLOW))).toBe(
      'SIGN_IN_PROVIDER_FAILED',
    );
    // GitHub refuses the code (it answers errors with 200 and an error body).
    server.use(
      http.post(GITHUB.token, () => HttpResponse.json({ error: 'bad_verification_code' })),
    );
    expect(await codeOf(github().finish(callback({ code: 'c', state: FLOW.state }), FLOW))).toBe(
      'SIGN_IN_PROVIDER_FAILED',
    );
    // GitHub's API is down.
    answerAs([]);
    server.use(http.get(`${GITHUB.api}/user`, () => new HttpResponse(null, { status: 502 })));
    expect(await codeOf(github().finish(callback({ code: 'c', state: FLOW.state }), FLOW))).toBe(
      'SIGN_IN_PROVIDER_UNREACHABLE',
    );
    // Unreachable altogether.
    server.use(http.post(GITHUB.token, () => HttpResponse.error()));
    expect(await codeOf(github().finish(callback({ code: 'c', state: FLOW.state }), FLOW))).toBe(
      'SIGN_IN_PROVIDER_UNREACHABLE',
    );
  });
});

describe('Google', () => {
  const google = () => providerClient(settings('GOOGLE'));
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;

  beforeAll(async () => {
    keys = await generateKeyPair('RS256');
  });

  /** Google's discovery document, keys and token endpoint; the ID token carries `claims`. */
  function answerAs(claims: Record<string, unknown>) {
    server.use(
      http.get(`${GOOGLE_ISSUER}/.well-known/openid-configuration`, () =>
        HttpResponse.json({
          issuer: GOOGLE_ISSUER,
          authorization_endpoint: `${GOOGLE_ISSUER}/o/oauth2/v2/auth`,
          token_endpoint: 'https://oauth2.googleapis.com/token',
          userinfo_endpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
          jwks_uri: 'https://www.googleapis.com/oauth2/v3/certs',
          response_types_supported: ['code', 'id_token', 'code id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['plain', 'S256'],
          token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        }),
      ),
      http.get('https://www.googleapis.com/oauth2/v3/certs', async () =>
        HttpResponse.json({
          keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }],
        }),
      ),
      http.post('https://oauth2.googleapis.com/token', async ({ request }) => {
        const body = new URLSearchParams(await request.text());
        if (body.get('code_verifier') !== FLOW.codeVerifier) {
          return HttpResponse.json({ error: 'invalid_grant' }, { status: 400 });
        }
        const idToken = await new SignJWT({
          email: 'ann@gmail.com',
          email_verified: true,
          name: 'Ann Example',
          nonce: FLOW.nonce,
          ...claims,
        })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(GOOGLE_ISSUER)
          .setAudience('client-id')
          .setSubject('108642')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(keys.privateKey);
        return HttpResponse.json({
          access_token: 'ya29.token',
          expires_in: 3599,
          scope: 'openid email profile',
          token_type: 'Bearer',
          id_token: idToken,
        });
      }),
    );
  }

  it('sends the reader to Google with state, nonce and a PKCE challenge', async () => {
    answerAs({});
    const url = await google().authorizationUrl(FLOW);
    expect(url.origin + url.pathname).toBe(`${GOOGLE_ISSUER}/o/oauth2/v2/auth`);
    expect(url.searchParams.get('state')).toBe(FLOW.state);
    expect(url.searchParams.get('nonce')).toBe(FLOW.nonce);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
  });

  it('checks the ID token and says who signed in', async () => {
    answerAs({});
    const profile = await google().finish(callback({ code: '4/0Ad', state: FLOW.state }), FLOW);
    expect(profile).toEqual({ subject: '108642', email: 'ann@gmail.com', nameHint: 'Ann Example' });
  });

  it('refuses an ID token of another sign-in (its nonce), and an unverified address', async () => {
    answerAs({ nonce: 'someone-elses' });
    expect(
      await codeOf(google().finish(callback({ code: '4/0Ad', state: FLOW.state }), FLOW)),
    ).toBe('SIGN_IN_PROVIDER_FAILED');
    forgetDiscoveries();
    answerAs({ email_verified: false });
    const profile = await google().finish(callback({ code: '4/0Ad', state: FLOW.state }), FLOW);
    expect(profile.email).toBeNull();
  });

  it('codes a denial and an outage', async () => {
    answerAs({});
    expect(
      await codeOf(google().finish(callback({ error: 'access_denied', state: FLOW.state }), FLOW)),
    ).toBe('SIGN_IN_DENIED');
    forgetDiscoveries();
    server.use(
      http.get(
        `${GOOGLE_ISSUER}/.well-known/openid-configuration`,
        () => new HttpResponse(null, { status: 503 }),
      ),
    );
    await expect(google().authorizationUrl(FLOW)).rejects.toBeDefined();
    expect(await codeOf(google().authorizationUrl(FLOW))).toBe('SIGN_IN_PROVIDER_UNREACHABLE');
  });

  it('leaves ParleyErrors as they are', async () => {
    const { toSignInError } = await import('./providerClients');
    const error = new ParleyError('SIGN_IN_EXPIRED', 'x');
    expect(toSignInError(error)).toBe(error);
  });
});
