import { findUserById, upsertSsoUser } from '../../../db/store/users';
import { testDialects } from '../../../db/testDatabases';
import { importSite } from '../../../portability/importSite';
import type { SourceItem } from '../../../portability/importSite';
import { PASSWORD, PUBLIC_URL, SITE_ORIGIN, useApi } from '../../testing/useApi';
import { codeOf, tokenFromMail } from './accountTestKit';

const REQUEST_RESET = `mutation ($input: RequestPasswordResetInput!) {
  requestPasswordReset(input: $input) { ok }
}`;
const RESET = `mutation ($input: ResetPasswordInput!) {
  resetPassword(input: $input) { token user { id username } }
}`;
const CONFIRM = `mutation ($input: TokenInput!) { confirmEmail(input: $input) { user { id } } }`;
const UPDATE_EMAIL = `mutation ($input: UpdateEmailInput!) { updateEmail(input: $input) { user { id } } }`;
const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`;
const NEW_PASSWORD = 'a brand new secret';
const HOUR_MS = 3_600_000;

describe.each(testDialects())('password reset and email confirmation on %s', (dialect) => {
  const api = useApi(dialect);

  async function requestReset(email: string) {
    return api.ok(REQUEST_RESET, { input: { email } });
  }

  describe('requestPasswordReset and resetPassword', () => {
    it('answers ok for known and unknown addresses alike, mailing only the account', async () => {
      await api.install();
      await api.signUp('reader_1');
      expect(await requestReset('nobody@example.com')).toEqual({
        requestPasswordReset: { ok: true },
      });
      expect(api.mail).toHaveLength(0);
      expect(await requestReset('READER_1@example.com')).toEqual({
        requestPasswordReset: { ok: true },
      });
      expect(api.mail).toHaveLength(1);
      expect(api.mail[0]?.to).toBe('reader_1@example.com');
      expect(api.mail[0]?.text).toContain(`${PUBLIC_URL}/account/reset-password#token=`);
    });

    it('lets an imported author claim the account with a reset; a placeholder address gets none', async () => {
      await api.install();
      const site = await api.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
      const author = (name: string, email: string | null) => ({
        id: null,
        name,
        email,
        vouched: false,
      });
      const comment = (id: string, who: ReturnType<typeof author>) =>
        ({
          kind: 'comment',
          id,
          threadId: 't',
          parentId: null,
          author: who,
          html: '<p>Old words</p>',
          createdAt: '2015-01-01T00:00:00Z',
          status: 'NONE',
          line: null,
        }) as const;
      async function* items(): AsyncGenerator<SourceItem> {
        yield {
          kind: 'thread',
          id: 't',
          url: `${SITE_ORIGIN}/old`,
          title: 'Old',
          createdAt: null,
          closed: false,
          line: null,
        };
        yield comment('1', author('Old Timer', 'old.timer@example.com'));
        yield comment('2', author('No Mail', null));
      }
      await importSite(api.db, items(), { siteId: site.id, format: 'test' });
      const placeholder = await api.db
        .selectFrom('users')
        .select('email')
        .where('username', '=', 'No_Mail')
        .executeTakeFirstOrThrow();
      await requestReset(placeholder.email);
      // Nor does an SSO reader: their host site has their password.
      await upsertSsoUser(api.db, {
        siteId: site.id,
        ssoId: 'host-7',
        email: 'host.reader@example.com',
        username: 'host_reader',
      });
      await requestReset('host.reader@example.com');
      expect(api.mail).toHaveLength(0);
      // No password yet: signing in fails like a wrong one, until the mailbox's owner resets.
      const email = 'old.timer@example.com';
      expect(codeOf(await api.request(SIGN_IN, { input: { email, password: PASSWORD } }))).toBe(
        'INVALID_CREDENTIALS',
      );
      await requestReset(email);
      expect(api.mail).toHaveLength(1);
      const token = tokenFromMail(api, '/account/reset-password');
      const data = await api.ok(RESET, { input: { token, password: NEW_PASSWORD } });
      expect(data.resetPassword.user).toMatchObject({ username: 'Old_Timer' });
      expect(
        (await api.request(SIGN_IN, { input: { email, password: NEW_PASSWORD } })).errors,
      ).toBe(undefined);
    });

    it('sets the new password and signs in with the link once; a second use is TOKEN_INVALID', async () => {
      await api.install();
      const { userId, token: oldSession } = await api.signUp('reader_1');
      await requestReset('reader_1@example.com');
      const token = tokenFromMail(api, '/account/reset-password');
      const data = await api.ok(RESET, { input: { token, password: NEW_PASSWORD } });
      expect(data.resetPassword.user).toEqual({ id: userId, username: 'reader_1' });
      const viewer = await api.ok(`{ viewer { id emailVerified } }`, {}, data.resetPassword.token);
      expect(viewer.viewer).toEqual({ id: userId, emailVerified: true });
      // A reset ends every session of the old password (a hijacker's included).
      expect(codeOf(await api.request(`{ viewer { id } }`, {}, oldSession))).toBe('TOKEN_INVALID');

      const email = 'reader_1@example.com';
      expect(codeOf(await api.request(SIGN_IN, { input: { email, password: PASSWORD } }))).toBe(
        'INVALID_CREDENTIALS',
      );
      expect(
        (await api.request(SIGN_IN, { input: { email, password: NEW_PASSWORD } })).errors,
      ).toBe(undefined);
      const again = await api.request(RESET, { input: { token, password: 'yet another one' } });
      expect(again.errors?.[0]?.extensions).toMatchObject({
        code: 'TOKEN_INVALID',
        field: 'token',
      });
    });

    it('answers TOKEN_EXPIRED after the link’s hour, and keeps the old password', async () => {
      await api.install();
      await api.signUp('reader_1');
      await requestReset('reader_1@example.com');
      const token = tokenFromMail(api, '/account/reset-password');
      api.setNow(new Date(Date.now() + 2 * HOUR_MS));
      const late = await api.request(RESET, { input: { token, password: NEW_PASSWORD } });
      expect(codeOf(late)).toBe('TOKEN_EXPIRED');
      const signIn = await api.request(SIGN_IN, {
        input: { email: 'reader_1@example.com', password: PASSWORD },
      });
      expect(signIn.errors).toBe(undefined);
    });

    it('refuses a short password without using up the link', async () => {
      await api.install();
      await api.signUp('reader_1');
      await requestReset('reader_1@example.com');
      const token = tokenFromMail(api, '/account/reset-password');
      const short = await api.request(RESET, { input: { token, password: 'short' } });
      expect(short.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'password',
      });
      expect((await api.request(RESET, { input: { token, password: NEW_PASSWORD } })).errors).toBe(
        undefined,
      );
    });

    it('withdraws older reset links once one is used', async () => {
      await api.install();
      await api.signUp('reader_1');
      await requestReset('reader_1@example.com');
      const older = tokenFromMail(api, '/account/reset-password');
      await requestReset('reader_1@example.com');
      const newer = tokenFromMail(api, '/account/reset-password');
      expect(newer).not.toBe(older);
      await api.ok(RESET, { input: { token: newer, password: NEW_PASSWORD } });
      const stale = await api.request(RESET, { input: { token: older, password: 'another one!' } });
      expect(codeOf(stale)).toBe('TOKEN_INVALID');
    });

    it('limits requests per IP with the sign-in limit: the 11th in 10 minutes is RATE_LIMITED', async () => {
      await api.install();
      for (let i = 0; i < 10; i += 1) await requestReset(`someone${i}@example.com`);
      const limited = await api.request(REQUEST_RESET, { input: { email: 'late@example.com' } });
      expect(limited.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThan(0);
    });

    it('refuses a token of another purpose: a confirmation link cannot reset a password', async () => {
      await api.install();
      const { token: session } = await api.signUp('reader_1');
      await api.ok(
        UPDATE_EMAIL,
        { input: { email: 'new@example.com', password: PASSWORD } },
        session,
      );
      const confirmToken = tokenFromMail(api, '/account/confirm-email');
      const answer = await api.request(RESET, {
        input: { token: confirmToken, password: NEW_PASSWORD },
      });
      expect(codeOf(answer)).toBe('TOKEN_INVALID');
    });
  });

  describe('confirmEmail', () => {
    it('verifies the address signed out (the link may open on another device), once', async () => {
      await api.install();
      const { token: session, userId } = await api.signUp('reader_1');
      await api.ok(
        UPDATE_EMAIL,
        { input: { email: 'new@example.com', password: PASSWORD } },
        session,
      );
      const token = tokenFromMail(api, '/account/confirm-email');
      const data = await api.ok(CONFIRM, { input: { token } });
      expect(data.confirmEmail.user).toEqual({ id: userId });
      expect((await findUserById(api.db, userId))?.emailVerified).toBe(true);
      expect(codeOf(await api.request(CONFIRM, { input: { token } }))).toBe('TOKEN_INVALID');
    });

    it('answers TOKEN_EXPIRED after three days and TOKEN_INVALID for a made-up token', async () => {
      await api.install();
      const { token: session, userId } = await api.signUp('reader_1');
      await api.ok(
        UPDATE_EMAIL,
        { input: { email: 'new@example.com', password: PASSWORD } },
        session,
      );
      const token = tokenFromMail(api, '/account/confirm-email');
      expect(codeOf(await api.request(CONFIRM, { input: { token: 'made-up' } }))).toBe(
        'TOKEN_INVALID',
      );
      api.setNow(new Date(Date.now() + 73 * HOUR_MS));
      expect(codeOf(await api.request(CONFIRM, { input: { token } }))).toBe('TOKEN_EXPIRED');
      expect((await findUserById(api.db, userId))?.emailVerified).toBe(false);
    });
  });
});
