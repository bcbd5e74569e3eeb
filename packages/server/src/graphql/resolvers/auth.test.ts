import { testDialects } from '../../db/testDatabases';
import { PASSWORD, SITE_ORIGIN, useApi } from '../testing/useApi';

const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token user { id username role } } }`;
const VIEWER = `{ viewer { id username email role status } }`;

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
    it('answers sign-up with the new user’s own private fields', async () => {
      await api.install();
      const data = await api.ok(
        `mutation ($input: SignUpInput!) { signUp(input: $input) { user { email status } } }`,
        { input: { email: 'New@Example.com', username: 'newbie', password: PASSWORD } },
      );
      expect(data.signUp.user).toEqual({ email: 'New@Example.com', status: 'ACTIVE' });
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
      ['taken username (other case)', { username: 'READER_1' }, 'USERNAME_TAKEN', 'username'],
      ['taken email', { email: 'reader_1@example.com', username: 'other' }, 'EMAIL_TAKEN', 'email'],
      ['short password', { password: 'short' }, 'INVALID_INPUT', 'password'],
      ['bad username', { username: 'no spaces' }, 'INVALID_INPUT', 'username'],
      ['bad email', { email: 'nope' }, 'INVALID_INPUT', 'email'],
    ])('refuses a %s with %s on that field', async (_name, change, code, field) => {
      await api.install();
      await api.signUp('reader_1');
      const answer = await api.request(
        `mutation ($input: SignUpInput!) { signUp(input: $input) { token } }`,
        { input: { email: 'new@example.com', username: 'newbie', password: PASSWORD, ...change } },
      );
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

    it('limits sign-in attempts per account: the 11th in 10 minutes is RATE_LIMITED', async () => {
      await api.install();
      await api.signUp('reader_1');
      const input = { email: 'reader_1@example.com', password: 'wrong password' };
      for (let i = 0; i < 10; i++) {
        expect((await api.request(SIGN_IN, { input })).errors?.[0]?.extensions?.code).toBe(
          'INVALID_CREDENTIALS',
        );
      }
      const limited = await api.request(SIGN_IN, { input: { ...input, password: PASSWORD } });
      expect(limited.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThan(0);
    }, 30_000); // 11 scrypt checks: seconds on a busy two-core machine, not the default 5

    it('refuses sign-up before install (NOT_INSTALLED) and when closed (FORBIDDEN)', async () => {
      const early = await api.request(
        `mutation ($input: SignUpInput!) { signUp(input: $input) { token } }`,
        { input: { email: 'a@example.com', username: 'early', password: PASSWORD } },
      );
      expect(early.errors?.[0]?.extensions?.code).toBe('NOT_INSTALLED');
      await api.install();
      await api.db
        .updateTable('organization')
        .set({ settings: JSON.stringify({ signUpOpen: false }) })
        .execute();
      const closed = await api.request(
        `mutation ($input: SignUpInput!) { signUp(input: $input) { token } }`,
        { input: { email: 'a@example.com', username: 'late', password: PASSWORD } },
      );
      expect(closed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
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
