import { testDialects } from '../../db/testDatabases';
import { PASSWORD, SITE_ORIGIN, useApi } from '../testing/useApi';

const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token user { id username role } } }`;
const VIEWER = `{ viewer { id username email role status } }`;
const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`;
const CONFIRM = `mutation ($input: ConfirmSignUpInput!) { confirmSignUp(input: $input) { token deviceToken user { username email emailVerified status } } }`;

/** Waits (a moment at most) for what is done in the background, such as sending mail. */
async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 100 && !condition(); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(testDialects())('auth on %s', (dialect) => {
  const api = useApi(dialect);

  describe('signOut', () => {
    it('ends the session on the server: the same token is refused afterwards, other sessions go on', async () => {
      const { adminToken } = await api.install();
      const other = await api.ok(SIGN_IN, {
        input: { email: 'admin@example.com', password: PASSWORD },
      });
      await api.ok(`mutation { signOut { ok } }`, {}, adminToken);
      const after = await api.request(VIEWER, {}, adminToken);
      expect(after.errors?.[0]?.extensions?.code).toBe('TOKEN_INVALID');
      expect((await api.ok(VIEWER, {}, other.signIn.token)).viewer.username).toBe('admin');
      // Signed out already: nothing to end, no error.
      expect(await api.ok(`mutation { signOut { ok } }`)).toEqual({ signOut: { ok: true } });
    });
  });

  describe('install', () => {
    it('creates the organization, its site and the admin once; then ALREADY_INSTALLED', async () => {
      const before = await api.ok(`{ settings { installed organization { name } } }`);
      expect(before.settings).toEqual({ installed: false, organization: null });
      const { adminToken } = await api.install();
      const viewer = await api.ok(VIEWER, {}, adminToken);
      expect(viewer.viewer).toMatchObject({ username: 'admin', role: 'ADMIN', status: 'ACTIVE' });
      const after = await api.ok(`{ settings { installed organization { name url } } }`);
      expect(after.settings).toEqual({
        installed: true,
        organization: { name: 'Example News', url: `${SITE_ORIGIN}/` },
      });
      const again = await api.request(
        `mutation ($input: InstallInput!) { install(input: $input) { token } }`,
        {
          input: {
            organization: { name: 'X', contactEmail: 'x@example.com', url: SITE_ORIGIN },
            site: { name: 'X', url: SITE_ORIGIN, allowedOrigins: [] },
            admin: { email: 'x@example.com', username: 'xx_x', password: PASSWORD },
          },
        },
      );
      expect(again.errors?.[0]?.extensions?.code).toBe('ALREADY_INSTALLED');
      expect(await api.db.selectFrom('users').select('id').execute()).toHaveLength(1);
    });

    it('rejects a bad field with INVALID_INPUT naming it, and stores nothing', async () => {
      const answer = await api.request(
        `mutation ($input: InstallInput!) { install(input: $input) { token } }`,
        {
          input: {
            organization: { name: 'Example', contactEmail: 'team@example.com', url: SITE_ORIGIN },
            site: { name: 'Example', url: SITE_ORIGIN, allowedOrigins: ['not an origin'] },
            admin: { email: 'admin@example.com', username: 'admin', password: PASSWORD },
          },
        },
      );
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'site.allowedOrigins.0',
        // What the console words in its language, with what was given.
        problem: 'ORIGIN_INVALID',
      });
      expect(await api.db.selectFrom('organization').select('id').execute()).toHaveLength(0);
    });
  });

  describe('settings', () => {
    it('renders the guidelines to sanitized HTML for the widget', async () => {
      await api.install();
      await api.db
        .updateTable('organization')
        .set({ settings: JSON.stringify({ guidelines: 'Be **kind**. <script>x</script>' }) })
        .execute();
      const data = await api.ok(`{ settings { guidelines guidelinesHtml } }`);
      expect(data.settings.guidelines).toBe('Be **kind**. <script>x</script>');
      expect(data.settings.guidelinesHtml).toBe(
        '<p>Be <strong>kind</strong>. &lt;script&gt;x&lt;/script&gt;</p>',
      );
    });
  });

  describe('sign-up and sign-in', () => {
    it('signs up in two steps: the code emailed to the address creates the account, its email confirmed', async () => {
      await api.install();
      const started = await api.ok(SIGN_UP, {
        input: { email: 'New@Example.com', username: 'newbie', password: PASSWORD },
      });
      expect(started.signUp).toEqual({ email: 'New@Example.com' });
      // The email also links the popup's page with the address and the code in its fragment,
      // which finishes the sign-up in one click (auth/SignUpLinkFinish.tsx).
      await new Promise((resolve) => setTimeout(resolve, 20));
      const link = /^(\S+\/embed\/auth#\S+)$/m.exec(api.mail.at(-1)?.text ?? '')?.[1];
      const fragment = new URLSearchParams(new URL(link ?? 'http://x/').hash.slice(1));
      expect(fragment.get('sign-up')).toBe('New@Example.com');
      expect(fragment.get('code')).toMatch(/^\d{6}$/);
      // Nothing exists before the code comes back.
      expect(
        await api.request(SIGN_IN, { input: { email: 'new@example.com', password: PASSWORD } }),
      ).toMatchObject({ errors: [{ extensions: { code: 'INVALID_CREDENTIALS' } }] });
      const code = await api.signUpCode('New@Example.com');
      const wrong = await api.request(CONFIRM, {
        input: { email: 'new@example.com', code: code === '000000' ? '000001' : '000000' },
      });
      expect(wrong.errors?.[0]?.extensions).toMatchObject({ code: 'CODE_INVALID', field: 'code' });
      const confirmed = await api.ok(CONFIRM, { input: { email: 'new@example.com', code } });
      expect(confirmed.confirmSignUp.user).toEqual({
        username: 'newbie',
        email: 'New@Example.com',
        emailVerified: true,
        status: 'ACTIVE',
      });
      expect(confirmed.confirmSignUp.deviceToken).toEqual(expect.any(String));
      // A code is used once.
      const again = await api.request(CONFIRM, { input: { email: 'new@example.com', code } });
      expect(again.errors?.[0]?.extensions?.code).toBe('CODE_INVALID');
    });

    it('answers a taken address exactly as a new one, and tells its owner by email instead of sending a code', async () => {
      await api.install();
      await api.signUp('reader_1');
      const answers = [];
      for (const email of ['reader_1@example.com', 'fresh@example.com']) {
        answers.push(
          await api.request(SIGN_UP, {
            input: {
              email,
              username: email.startsWith('r') ? 'other' : 'another',
              password: PASSWORD,
            },
          }),
        );
      }
      expect(answers[0]).toEqual({ data: { signUp: { email: 'reader_1@example.com' } } });
      expect(answers[1]).toEqual({ data: { signUp: { email: 'fresh@example.com' } } });
      await api.signUpCode('fresh@example.com');
      await waitFor(() => api.mail.some((m) => m.to === 'reader_1@example.com'));
      expect(api.mail).toEqual([
        expect.objectContaining({
          to: 'reader_1@example.com',
          subject: 'You already have an account',
          text: expect.not.stringMatching(/^ {4}\d{6}$/m),
        }),
      ]);
      // And no code for that address works.
      const guessed = await api.request(CONFIRM, {
        input: { email: 'reader_1@example.com', code: '123456' },
      });
      expect(guessed.errors?.[0]?.extensions?.code).toBe('CODE_INVALID');
    });

    it('drops a sign-up after 5 wrong codes, and when its 30 minutes are over', async () => {
      await api.install();
      const start = (email: string, username: string) =>
        api.ok(SIGN_UP, { input: { email, username, password: PASSWORD } });
      await start('guessed@example.com', 'guessed');
      const code = await api.signUpCode('guessed@example.com');
      const other = code === '111111' ? '222222' : '111111';
      for (let i = 0; i < 5; i += 1) {
        await api.request(CONFIRM, { input: { email: 'guessed@example.com', code: other } });
      }
      const late = await api.request(CONFIRM, { input: { email: 'guessed@example.com', code } });
      expect(late.errors?.[0]?.extensions?.code).toBe('CODE_INVALID');

      await start('slow@example.com', 'slow');
      const slowCode = await api.signUpCode('slow@example.com');
      api.setNow(new Date(Date.now() + 31 * 60_000));
      const expired = await api.request(CONFIRM, {
        input: { email: 'slow@example.com', code: slowCode },
      });
      expect(expired.errors?.[0]?.extensions?.code).toBe('CODE_INVALID');
    });

    it('says a taken username only to the address’s owner: in the email, then at confirmation', async () => {
      await api.install();
      await api.signUp('reader_1');
      const started = await api.request(SIGN_UP, {
        input: { email: 'late@example.com', username: 'READER_1', password: PASSWORD },
      });
      expect(started).toEqual({ data: { signUp: { email: 'late@example.com' } } });
      await waitFor(() => api.mail.length > 0);
      expect(api.mail[0]?.text).toContain('The username "READER_1" is taken');
      // No one-click link then: the window must ask for another name.
      expect(api.mail[0]?.text).not.toContain('/embed/auth#');
      const code = await api.signUpCode('late@example.com');
      const taken = await api.request(CONFIRM, { input: { email: 'late@example.com', code } });
      expect(taken.errors?.[0]?.extensions).toMatchObject({
        code: 'USERNAME_TAKEN',
        field: 'username',
      });
      // The same code, with another name (here as the popup sends it: the name field again).
      const renamed = await api.ok(CONFIRM, {
        input: { email: 'late@example.com', code, username: 'reader_2' },
      });
      expect(renamed.confirmSignUp.user.username).toBe('reader_2');
    });

    it('signs up, then signs in with the same email in another case', async () => {
      await api.install();
      const { userId } = await api.signUp('reader_1');
      const data = await api.ok(SIGN_IN, {
        input: { email: 'READER_1@Example.com', password: PASSWORD },
      });
      expect(data.signIn.user).toEqual({ id: userId, username: 'reader_1', role: 'COMMENTER' });
      const viewer = await api.ok(VIEWER, {}, data.signIn.token);
      expect(viewer.viewer).toMatchObject({ id: userId, email: 'reader_1@example.com' });
    });

    it.each([
      ['short password', { password: 'short' }, 'INVALID_INPUT', 'password'],
      ['bad username', { username: 'no spaces' }, 'INVALID_INPUT', 'username'],
      ['bad email', { email: 'nope' }, 'INVALID_INPUT', 'email'],
    ])('refuses a %s with %s on that field', async (_name, change, code, field) => {
      await api.install();
      await api.signUp('reader_1');
      const answer = await api.request(SIGN_UP, {
        input: { email: 'new@example.com', username: 'newbie', password: PASSWORD, ...change },
      });
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code, field });
    });

    it('answers a wrong password and an unknown email alike: INVALID_CREDENTIALS', async () => {
      await api.install();
      await api.signUp('reader_1');
      for (const input of [
        { email: 'reader_1@example.com', password: 'wrong password' },
        { email: 'nobody@example.com', password: PASSWORD },
      ]) {
        const answer = await api.request(SIGN_IN, { input });
        expect(answer.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
        expect(answer.errors?.[0]?.message).toBe('That email and password do not match.');
      }
    });

    it('asks for a challenge after 5 failures on an account instead of blocking it; a known device goes through', async () => {
      await api.install();
      await api.ok(SIGN_UP, {
        input: { email: 'reader_1@example.com', username: 'reader_1', password: PASSWORD },
      });
      const signUp = await api.ok(CONFIRM, {
        input: {
          email: 'reader_1@example.com',
          code: await api.signUpCode('reader_1@example.com'),
        },
      });
      const input = { email: 'reader_1@example.com', password: 'wrong password' };
      for (let i = 0; i < 5; i++) {
        expect((await api.request(SIGN_IN, { input })).errors?.[0]?.extensions?.code).toBe(
          'INVALID_CREDENTIALS',
        );
      }
      const right = { ...input, password: PASSWORD };
      const asked = await api.request(SIGN_IN, { input: right });
      expect(asked.errors?.[0]?.extensions).toMatchObject({
        code: 'CHALLENGE_REQUIRED',
        challenge: expect.any(String),
        bits: expect.any(Number),
        retryAfterMs: expect.any(Number),
      });
      const known = await api.ok(SIGN_IN, {
        input: { ...right, deviceToken: signUp.confirmSignUp.deviceToken },
      });
      expect(known.signIn.token).toEqual(expect.any(String));
    }, 30_000); // scrypt checks: seconds on a busy two-core machine, not the default 5

    it('refuses sign-up before install (NOT_INSTALLED) and when closed (FORBIDDEN)', async () => {
      const early = await api.request(SIGN_UP, {
        input: { email: 'a@example.com', username: 'early', password: PASSWORD },
      });
      expect(early.errors?.[0]?.extensions?.code).toBe('NOT_INSTALLED');
      await api.install();
      await api.ok(SIGN_UP, {
        input: { email: 'b@example.com', username: 'before', password: PASSWORD },
      });
      const code = await api.signUpCode('b@example.com');
      await api.db
        .updateTable('organization')
        .set({ settings: JSON.stringify({ signUpOpen: false }) })
        .execute();
      const closed = await api.request(SIGN_UP, {
        input: { email: 'a@example.com', username: 'late', password: PASSWORD },
      });
      expect(closed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      // A code asked for before sign-up closed does not open it.
      const confirmed = await api.request(CONFIRM, { input: { email: 'b@example.com', code } });
      expect(confirmed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    });
  });

  describe('tokens', () => {
    it('treats a forged token as TOKEN_INVALID and no token as signed out', async () => {
      await api.install();
      expect((await api.ok(VIEWER)).viewer).toBeNull();
      const forged = await api.request(VIEWER, {}, 'eyJhbGciOiJIUzI1NiJ9.e30.forged');
      expect(forged.errors?.[0]?.extensions?.code).toBe('TOKEN_INVALID');
    });
  });
});
