import { updateSettings } from '../db/store/organization';
import { testDialects } from '../db/testDatabases';
import { useApi } from '../graphql/testing/useApi';
import { DEFAULT_BOT_CHECK } from '../defaults';
import { solveChallengeSync } from './testing/answerChallenges';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`;
/** Guests write from an address (their sessions are counted by it). */
const IP = '203.0.113.5';
const GUEST = `mutation ($input: StartGuestSessionInput!) { startGuestSession(input: $input) { token } }`;

describe.each(testDialects())('bots before content on %s', (dialect) => {
  const api = useApi(dialect);
  beforeEach(async () => {
    await api.install();
  });

  const codeOf = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) =>
    answer.errors?.[0]?.extensions?.['code'];

  /** The challenge a bare request is answered with. */
  async function challengeFor(query: string, input: Record<string, unknown>, ip?: string) {
    const answer = await api.rawRequest(query, { input }, null, ip);
    expect(codeOf(answer)).toBe('CHALLENGE_REQUIRED');
    const extensions = answer.errors![0]!.extensions!;
    expect(extensions['bits']).toBe(DEFAULT_BOT_CHECK.bits);
    const challenge = String(extensions['challenge']);
    return { challenge, solution: solveChallengeSync(challenge, DEFAULT_BOT_CHECK.bits) };
  }

  it('asks every sign-up for a proof of work, made for its address and good once', async () => {
    const ann = { email: 'ann@example.com', username: 'ann', password: 'correct horse battery' };
    const answer = await challengeFor(SIGN_UP, ann);
    // Not solved: asked again.
    expect(
      codeOf(await api.rawRequest(SIGN_UP, { input: { ...ann, ...answer, solution: 'x' } })),
    ).toBe('CHALLENGE_REQUIRED');
    // Made for another address: asked again.
    const bob = { ...ann, email: 'bob@example.com', username: 'bob' };
    expect(codeOf(await api.rawRequest(SIGN_UP, { input: { ...bob, ...answer } }))).toBe(
      'CHALLENGE_REQUIRED',
    );
    // Solved: through.
    expect((await api.rawRequest(SIGN_UP, { input: { ...ann, ...answer } })).data).toEqual({
      signUp: { email: 'ann@example.com' },
    });
    // Once.
    expect(codeOf(await api.rawRequest(SIGN_UP, { input: { ...ann, ...answer } }))).toBe(
      'CHALLENGE_REQUIRED',
    );
    // Only its own address's sign-up mail went out.
    expect(api.mail.map((m) => m.to)).toEqual(['ann@example.com']);
  });

  it('refuses a filled honeypot, whatever the work, and sends nothing', async () => {
    const ann = { email: 'ann@example.com', username: 'ann', password: 'correct horse battery' };
    const answer = await challengeFor(SIGN_UP, ann);
    const trapped = await api.rawRequest(SIGN_UP, {
      input: { ...ann, ...answer, website: 'https://spam.example' },
    });
    expect(trapped.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'website',
    });
    expect(api.mail).toEqual([]);
  });

  it('asks a new guest for the same, per address, and the trap too', async () => {
    await updateSettings(api.db, { guestComments: true });
    const sam = { name: 'Sam Smith' };
    const answer = await challengeFor(GUEST, sam, IP);
    const trapped = await api.rawRequest(
      GUEST,
      { input: { ...sam, ...answer, website: 'x' } },
      null,
      IP,
    );
    expect(trapped.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'website',
    });
    const started = await api.rawRequest(GUEST, { input: { ...sam, ...answer } }, null, IP);
    expect(started.errors).toBeUndefined();
    expect(typeof started.data?.['startGuestSession'].token).toBe('string');
    expect(
      codeOf(await api.rawRequest(GUEST, { input: { name: 'Sam Two', ...answer } }, null, IP)),
    ).toBe('CHALLENGE_REQUIRED');
  });
});
