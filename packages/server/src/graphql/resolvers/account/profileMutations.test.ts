import { findUserById } from '../../../db/store/users';
import { testDialects } from '../../../db/testDatabases';
import { PASSWORD, PUBLIC_URL, useApi } from '../../testing/useApi';
import { codeOf, tokenFromMail, USER_FIELDS } from './accountTestKit';

const UPDATE_USERNAME = `mutation ($input: UpdateUsernameInput!) {
  updateUsername(input: $input) { user { ${USER_FIELDS} } }
}`;
const UPDATE_EMAIL = `mutation ($input: UpdateEmailInput!) {
  updateEmail(input: $input) { user { ${USER_FIELDS} } }
}`;
const UPDATE_PASSWORD = `mutation ($input: UpdatePasswordInput!) {
  updatePassword(input: $input) { user { id } }
}`;
const UPDATE_NOTIFICATIONS = `mutation ($input: UpdateNotificationSettingsInput!) {
  updateNotificationSettings(input: $input) { user { id } }
}`;
const CONFIRM = `mutation ($input: TokenInput!) { confirmEmail(input: $input) { user { ${USER_FIELDS} } } }`;
const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`;

describe.each(testDialects())('profile mutations on %s', (dialect) => {
  const api = useApi(dialect);

  describe('updateUsername', () => {
    it('renames the viewer; a name taken in another case is USERNAME_TAKEN', async () => {
      await api.install();
      const { token } = await api.signUp('reader_1');
      await api.signUp('reader_2');
      const data = await api.ok(UPDATE_USERNAME, { input: { username: ' Reader.One ' } }, token);
      expect(data.updateUsername.user).toMatchObject({ username: 'Reader.One' });
      const taken = await api.request(UPDATE_USERNAME, { input: { username: 'READER_2' } }, token);
      expect(taken.errors?.[0]?.extensions).toMatchObject({
        code: 'USERNAME_TAKEN',
        field: 'username',
      });
      const bad = await api.request(UPDATE_USERNAME, { input: { username: 'a b' } }, token);
      expect(bad.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'username',
      });
    });
  });

  describe('sendEmailConfirmation', () => {
    const SEND = `mutation { sendEmailConfirmation { user { ${USER_FIELDS} } } }`;

    it('sends the link again to an unconfirmed address, only the latest works, 3 an hour', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      // Confirmed by its sign-up code: nothing to send.
      const confirmedAlready = await api.ok(SEND, {}, token);
      expect(confirmedAlready.sendEmailConfirmation.user.emailVerified).toBe(true);
      expect(api.mail).toEqual([]);

      // An account from before sign-ups were confirmed (or an address changed and not confirmed).
      await api.db
        .updateTable('users')
        .set({ email_verified: 0 })
        .where('id', '=', userId)
        .execute();
      await api.ok(SEND, {}, token);
      const first = tokenFromMail(api, '/account/confirm-email');
      await api.ok(SEND, {}, token);
      const second = tokenFromMail(api, '/account/confirm-email');
      expect(api.mail.map((m) => m.to)).toEqual(['reader_1@example.com', 'reader_1@example.com']);
      expect(codeOf(await api.request(CONFIRM, { input: { token: first } }, token))).toBe(
        'TOKEN_INVALID',
      );
      await api.ok(SEND, {}, token);
      const third = tokenFromMail(api, '/account/confirm-email');
      const limited = await api.request(SEND, {}, token);
      expect(limited.errors?.[0]?.extensions).toMatchObject({
        code: 'RATE_LIMITED',
        retryAfterSeconds: expect.any(Number),
      });
      expect(codeOf(await api.request(CONFIRM, { input: { token: second } }, token))).toBe(
        'TOKEN_INVALID',
      );
      const confirmed = await api.ok(CONFIRM, { input: { token: third } }, token);
      expect(confirmed.confirmEmail.user.emailVerified).toBe(true);
      expect((await findUserById(api.db, userId))?.emailVerified).toBe(true);
    });

    it('answers UNAUTHENTICATED when signed out', async () => {
      await api.install();
      expect(codeOf(await api.request(SEND))).toBe('UNAUTHENTICATED');
      expect(api.mail).toEqual([]);
    });
  });

  describe('updateEmail', () => {
    it('needs the current password, unverifies the address and mails a confirmation link', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      const wrong = await api.request(
        UPDATE_EMAIL,
        { input: { email: 'new@example.com', password: 'not my password' } },
        token,
      );
      expect(wrong.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        field: 'password',
      });
      expect((await findUserById(api.db, userId))?.email).toBe('reader_1@example.com');

      const data = await api.ok(
        UPDATE_EMAIL,
        { input: { email: 'new@example.com', password: PASSWORD } },
        token,
      );
      expect(data.updateEmail.user).toMatchObject({
        email: 'new@example.com',
        emailVerified: false,
      });
      const confirmation = api.mail.find((m) => m.to === 'new@example.com');
      expect(confirmation?.text).toContain(`${PUBLIC_URL}/account/confirm-email#token=`);
      // The old address hears of the change: a hijacked account shows there.
      expect(api.mail.find((m) => m.to === 'reader_1@example.com')?.text).toContain(
        'new@example.com',
      );

      const confirmed = await api.ok(
        CONFIRM,
        { input: { token: tokenFromMail(api, '/account/confirm-email') } },
        token,
      );
      expect(confirmed.confirmEmail.user).toMatchObject({
        email: 'new@example.com',
        emailVerified: true,
      });
      const signIn = await api.request(SIGN_IN, {
        input: { email: 'new@example.com', password: PASSWORD },
      });
      expect(signIn.errors).toBe(undefined);
    });

    it('makes a link sent to a previous new address useless once the address changes again', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      await api.ok(
        UPDATE_EMAIL,
        { input: { email: 'first@example.com', password: PASSWORD } },
        token,
      );
      const first = tokenFromMail(api, '/account/confirm-email');
      await api.ok(
        UPDATE_EMAIL,
        { input: { email: 'second@example.com', password: PASSWORD } },
        token,
      );
      expect(codeOf(await api.request(CONFIRM, { input: { token: first } }))).toBe('TOKEN_INVALID');
      expect((await findUserById(api.db, userId))?.emailVerified).toBe(false);
    });

    it('refuses an address another account has (EMAIL_TAKEN) or a malformed one', async () => {
      await api.install();
      const { token } = await api.signUp('reader_1');
      await api.signUp('reader_2');
      const taken = await api.request(
        UPDATE_EMAIL,
        { input: { email: 'Reader_2@example.com', password: PASSWORD } },
        token,
      );
      expect(taken.errors?.[0]?.extensions).toMatchObject({ code: 'EMAIL_TAKEN', field: 'email' });
      const bad = await api.request(
        UPDATE_EMAIL,
        { input: { email: 'nope', password: PASSWORD } },
        token,
      );
      expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
      expect(api.mail).toHaveLength(0);
    });
  });

  describe('updatePassword', () => {
    it('changes the password after checking the old one (INVALID_CREDENTIALS when wrong)', async () => {
      await api.install();
      const { token } = await api.signUp('reader_1');
      const wrong = await api.request(
        UPDATE_PASSWORD,
        { input: { oldPassword: 'not my password', newPassword: 'a brand new secret' } },
        token,
      );
      expect(wrong.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        field: 'oldPassword',
      });
      const short = await api.request(
        UPDATE_PASSWORD,
        { input: { oldPassword: PASSWORD, newPassword: 'short' } },
        token,
      );
      expect(short.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'newPassword',
      });
      const other = await api.ok(SIGN_IN, {
        input: { email: 'reader_1@example.com', password: PASSWORD },
      }); // a second device
      const changed = await api.ok(
        `mutation ($input: UpdatePasswordInput!) { updatePassword(input: $input) { token } }`,
        { input: { oldPassword: PASSWORD, newPassword: 'a brand new secret' } },
        token,
      );
      // This device goes on with the fresh token; every other session has ended.
      expect(
        (await api.ok(`{ viewer { username } }`, {}, changed.updatePassword.token)).viewer,
      ).toEqual({ username: 'reader_1' });
      for (const ended of [token, other.signIn.token]) {
        expect(codeOf(await api.request(`{ viewer { id } }`, {}, ended))).toBe('TOKEN_INVALID');
      }
      const email = 'reader_1@example.com';
      expect(codeOf(await api.request(SIGN_IN, { input: { email, password: PASSWORD } }))).toBe(
        'INVALID_CREDENTIALS',
      );
      const again = await api.request(SIGN_IN, {
        input: { email, password: 'a brand new secret' },
      });
      expect(again.errors).toBe(undefined);
    });

    it('counts wrong old passwords against the account’s sign-in limit', async () => {
      await api.install();
      const { token } = await api.signUp('reader_1');
      const input = { oldPassword: 'not my password', newPassword: 'a brand new secret' };
      // The limit counts in fixed windows: 11 scrypt checks that straddled the turn of one (a
      // slow run; it failed so in CI) would count in two. The clock stands still for them.
      const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
      try {
        for (let i = 0; i < 10; i += 1) await api.request(UPDATE_PASSWORD, { input }, token);
        const limited = await api.request(UPDATE_PASSWORD, { input }, token);
        expect(codeOf(limited)).toBe('RATE_LIMITED');
      } finally {
        now.mockRestore();
      }
    }, 30_000); // 11 scrypt checks: seconds on a busy two-core machine, not the default 5
  });

  describe('updateNotificationSettings', () => {
    it('stores the switches sent and keeps the others', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      await api.ok(UPDATE_NOTIFICATIONS, { input: { onReply: true, onFeatured: false } }, token);
      await api.ok(UPDATE_NOTIFICATIONS, { input: { onModeration: true, onReply: null } }, token);
      expect((await findUserById(api.db, userId))?.notificationPrefs).toEqual({
        onReply: true,
        onFeatured: false,
        onModeration: true,
      });
    });
  });
});
