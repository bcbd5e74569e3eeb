import { mkdtemp, rm } from 'node:fs/promises';
import { answerChallenges } from '../src/auth/testing/answerChallenges';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveChallenge } from '@parley/transport/sign-in';
import { createParleyServer } from '../src/createParleyServer';
import { installOverHttp } from '../src/runtime/testing/installOverHttp';
import type { ParleyServer } from '../src/createParleyServer';
import { SIGN_IN_CHALLENGE } from '../src/defaults';
import { loadConfig } from '../src/runtime/loadConfig';
import { createMemoryLogger } from '../src/runtime/testing/createTestYoga';
import { signUpCodeFromOutbox } from '../src/runtime/testing/readOutbox';

// Once, 11 wrong passwords from 2 addresses locked the owner out for 10 minutes (and
// blocked their password and email changes). Replayed on a real server behind one proxy, so each
// request can come from an address of its own.

const SITE = 'https://site.example';
const PASSWORD = 'correct horse battery';
const EMAIL = 'owner@example.com';
const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token deviceToken } }`;

interface Answer {
  data?: any;
  errors?: { message: string; extensions: Record<string, any> }[];
}

describe('an account under password guessing', () => {
  let dir: string;
  let server: ParleyServer;
  let url: string;
  /** Set to freeze the server's clock (a challenge's delay is then passed by moving it). */
  let frozen: Date | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-lockout-'));
    frozen = undefined;
    server = await createParleyServer({
      config: loadConfig({
        PORT: '0',
        PARLEY_DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        TRUST_PROXY: '1',
      }),
      logger: createMemoryLogger().logger,
      now: () => frozen ?? new Date(),
    });
    url = `http://127.0.0.1:${await server.listen()}`;
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function graphql(ip: string, query: string, variables: object, token?: string) {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as Answer;
  }
  const codeOf = (answer: Answer) => answer.errors?.[0]?.extensions['code'];

  async function setUp() {
    await installOverHttp(url, {
      site: SITE,
      password: PASSWORD,
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    await answerChallenges((answer) =>
      graphql(
        '198.51.100.2',
        `
          mutation ($input: SignUpInput!) {
            signUp(input: $input) {
              email
            }
          }
        `,
        { input: { email: EMAIL, username: 'owner', password: PASSWORD, ...answer } },
      ),
    );
    const signedUp = await graphql(
      '198.51.100.2',
      `
        mutation ($input: ConfirmSignUpInput!) {
          confirmSignUp(input: $input) {
            token
            deviceToken
          }
        }
      `,
      { input: { email: EMAIL, code: await signUpCodeFromOutbox(dir, EMAIL) } },
    );
    return signedUp.data.confirmSignUp as { token: string; deviceToken: string };
  }

  /** The audit's probe: 11 wrong passwords, from two addresses. */
  async function guess() {
    const codes: unknown[] = [];
    for (let i = 0; i < 11; i += 1) {
      const ip = i % 2 === 0 ? '203.0.113.1' : '203.0.113.2';
      codes.push(
        codeOf(await graphql(ip, SIGN_IN, { input: { email: EMAIL, password: `guess ${i}` } })),
      );
    }
    return codes;
  }

  it('does not lock the owner out: a known device signs in at once, a new one after a short challenge', async () => {
    const owner = await setUp();
    const codes = await guess();
    // Five free failures, then every guess must carry a solved challenge.
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('INVALID_CREDENTIALS'));
    expect(codes.slice(5)).toEqual(Array(6).fill('CHALLENGE_REQUIRED'));

    // The owner's own browser, remembered at sign-up: straight in.
    const known = await graphql('192.0.2.7', SIGN_IN, {
      input: { email: EMAIL, password: PASSWORD, deviceToken: owner.deviceToken },
    });
    expect(known.data?.signIn.token).toEqual(expect.any(String));

    // Another account's device token is no pass for this one.
    const admin = await graphql('192.0.2.7', SIGN_IN, {
      input: { email: 'admin@example.com', password: PASSWORD },
    });
    const borrowed = await graphql('192.0.2.7', SIGN_IN, {
      input: { email: EMAIL, password: PASSWORD, deviceToken: admin.data.signIn.deviceToken },
    });
    expect(codeOf(borrowed)).toBe('CHALLENGE_REQUIRED');

    // A new device: a challenge (work and a delay), then in. The clock stands still while the
    // challenge is solved (however long that takes on a slow machine), so the answer is early.
    frozen = new Date();
    const asked = await graphql('192.0.2.8', SIGN_IN, {
      input: { email: EMAIL, password: PASSWORD },
    });
    expect(codeOf(asked)).toBe('CHALLENGE_REQUIRED');
    const { challenge, bits, retryAfterMs } = asked.errors![0]!.extensions;
    expect(bits).toBe(SIGN_IN_CHALLENGE.baseBits);
    expect(retryAfterMs).toBe(SIGN_IN_CHALLENGE.baseDelayMs);
    const solution = await solveChallenge(challenge, bits);
    const answer = { email: EMAIL, password: PASSWORD, challenge, solution };
    const early = await graphql('192.0.2.8', SIGN_IN, { input: answer });
    expect(codeOf(early)).toBe('CHALLENGE_REQUIRED');
    expect(early.errors![0]!.extensions['retryAfterMs']).toBeGreaterThan(0);
    frozen = new Date(frozen.getTime() + retryAfterMs);
    const signedIn = await graphql('192.0.2.8', SIGN_IN, { input: answer });
    expect(signedIn.data?.signIn.deviceToken).toEqual(expect.any(String));
    // A challenge is used once.
    expect(codeOf(await graphql('192.0.2.8', SIGN_IN, { input: answer }))).toBe(
      'CHALLENGE_REQUIRED',
    );
    // A made-up solution is no answer.
    const forged = { ...answer, solution: 'not-a-solution' };
    expect(codeOf(await graphql('192.0.2.9', SIGN_IN, { input: forged }))).toBe(
      'CHALLENGE_REQUIRED',
    );
  }, 60_000);

  it("lets the owner change their password while strangers fail to sign in; each address's limit stays hard", async () => {
    const owner = await setUp();
    await guess();
    const changed = await graphql(
      '192.0.2.7',
      `
        mutation ($input: UpdatePasswordInput!) {
          updatePassword(input: $input) {
            user {
              id
            }
          }
        }
      `,
      { input: { oldPassword: PASSWORD, newPassword: 'a brand new password' } },
      owner.token,
    );
    expect(changed.errors).toBeUndefined();
    // 203.0.113.1 made 6 attempts; four more are allowed in its 10 minutes, then none.
    for (let i = 0; i < 4; i += 1) {
      await graphql('203.0.113.1', SIGN_IN, { input: { email: EMAIL, password: 'x' } });
    }
    const limited = await graphql('203.0.113.1', SIGN_IN, {
      input: { email: EMAIL, password: 'a brand new password', deviceToken: owner.deviceToken },
    });
    expect(codeOf(limited)).toBe('RATE_LIMITED');
  }, 60_000);
});
