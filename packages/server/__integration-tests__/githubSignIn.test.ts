import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { GITHUB } from '../src/auth/providers/providerClients';
import { createParleyServer } from '../src/createParleyServer';
import type { ParleyServer } from '../src/createParleyServer';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { freePort } from '../src/runtime/testing/freePort';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import { graphqlAnswer } from '../src/runtime/testing/graphqlAs';

// "Continue with GitHub" through the real server: its start and callback routes, the state
// cookie, PKCE, and the account it makes. GitHub itself is a stand-in answering as its documented
// OAuth and REST endpoints do (in this process: msw sees the server's own requests to github.com;
// every other request goes through).

const SITE = 'https://news.example';
const github = setupServer();

describe('signing in with GitHub', () => {
  let dir: string;
  let server: ParleyServer;
  let url: string;
  let admin: string;
  let providerId: string;

  const graphql = (query: string, variables: object = {}, token?: string) =>
    graphqlAnswer(url, query, variables, token);

  beforeAll(async () => {
    github.listen({ onUnhandledRequest: 'bypass' });
    dir = await mkdtemp(join(tmpdir(), 'parley-github-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = await createParleyServer({
      config: loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        PARLEY_DATA_DIR: dir,
        LOG_LEVEL: 'silent',
      }),
      logger: createMemoryLogger().logger,
    });
    await server.listen();
    admin = await installOverHttp(url, { site: SITE, password: 'correct horse battery' });
    const siteId = (await graphql('{ sites { id } }', {}, admin)).data.sites[0].id;
    const made = await graphql(
      `mutation ($input: CreateSignInProviderInput!) {
        createSignInProvider(input: $input) { signInProvider { id } }
      }`,
      {
        input: {
          kind: 'GITHUB',
          name: 'GitHub',
          clientId: 'gh-client',
          clientSecret: 'gh-secret',
          siteIds: [siteId],
        },
      },
      admin,
    );
    providerId = made.data.createSignInProvider.signInProvider.id;
  });
  afterAll(async () => {
    github.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The popup's button: GitHub's authorization URL, and the state cookie it came with. */
  async function start() {
    const response = await fetch(
      `${url}/auth/providers/${providerId}/start?story=${encodeURIComponent(`${SITE}/a`)}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(303);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return { authorize: new URL(response.headers.get('location') ?? ''), cookie };
  }

  /** GitHub sending the reader back with `params`; resolves where the popup goes next. */
  async function callback(params: Record<string, string>, cookie: string) {
    const response = await fetch(
      `${url}/auth/providers/${providerId}/callback?${new URLSearchParams(params)}`,
      { redirect: 'manual', headers: { cookie } },
    );
    expect(response.status).toBe(303);
    return new URL(response.headers.get('location') ?? '', url);
  }

  it('makes an account from GitHub’s profile, checking the PKCE verifier GitHub is sent', async () => {
    const { authorize, cookie } = await start();
    expect(`${authorize.origin}${authorize.pathname}`).toBe(GITHUB.authorize);
    expect(authorize.searchParams.get('client_id')).toBe('gh-client');
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      `${url}/auth/providers/${providerId}/callback`,
    );
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const challenge = authorize.searchParams.get('code_challenge');
    github.use(
      http.post(GITHUB.token, async ({ request }) => {
        const body = new URLSearchParams(await request.text());
        // What GitHub checks: the verifier hashes to the challenge it was shown.
        const verifier = body.get('code_verifier') ?? '';
        const hashed = createHash('sha256').update(verifier).digest('base64url');
        if (body.get('code') !== 'gh-code' || hashed !== challenge) {
          return HttpResponse.json({ error: 'bad_verification_code' });
        }
        return HttpResponse.json({
          access_token: 'gho_token',
          token_type: 'bearer',
          scope: 'read:user,user:email',
        });
      }),
      http.get(`${GITHUB.api}/user`, () =>
        HttpResponse.json({ id: 583231, login: 'octocat', name: 'The Octocat' }),
      ),
      http.get(`${GITHUB.api}/user/emails`, () =>
        HttpResponse.json([{ email: 'octocat@github.example', primary: true, verified: true }]),
      ),
    );
    const popup = await callback(
      { code: 'gh-code', state: authorize.searchParams.get('state') ?? '' },
      cookie,
    );
    expect(popup.pathname).toBe('/embed/auth');
    const redeemed = await graphql(
      `mutation ($input: RedeemProviderSignInInput!) {
        redeemProviderSignIn(input: $input) { token }
      }`,
      { input: { code: popup.searchParams.get('provider_code') ?? '' } },
    );
    const viewer = await graphql(
      `{ viewer { username email emailVerified identities { email provider { kind name } } } }`,
      {},
      redeemed.data.redeemProviderSignIn.token,
    );
    expect(viewer.data.viewer).toEqual({
      username: 'octocat',
      email: 'octocat@github.example',
      emailVerified: true,
      identities: [
        { email: 'octocat@github.example', provider: { kind: 'GITHUB', name: 'GitHub' } },
      ],
    });
  });

  it('says a refusal on GitHub, and GitHub being down, by their codes', async () => {
    const refused = await start();
    const denied = await callback(
      {
        error: 'access_denied',
        error_description: 'The user has denied your application access.',
        state: refused.authorize.searchParams.get('state') ?? '',
      },
      refused.cookie,
    );
    expect(denied.searchParams.get('error')).toBe('SIGN_IN_DENIED');
    github.use(http.post(GITHUB.token, () => new HttpResponse(null, { status: 503 })));
    const down = await start();
    const unreachable = await callback(
      { code: 'gh-code', state: down.authorize.searchParams.get('state') ?? '' },
      down.cookie,
    );
    expect(unreachable.searchParams.get('error')).toBe('SIGN_IN_PROVIDER_UNREACHABLE');
  });
});
