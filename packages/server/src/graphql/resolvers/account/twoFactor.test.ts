import { totpCode } from '../../../auth/twoFactor';
import { testDialects } from '../../../db/testDatabases';
import { PASSWORD, useApi } from '../../testing/useApi';
import type { Api } from '../../testing/useApi';
import { codeOf, tokenFromMail } from './accountTestKit';

const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token user { id } } }`;
const SECOND = `mutation ($input: SecondFactorInput!) { signInSecondFactor(input: $input) { token deviceToken user { id twoFactorEnabled } } }`;
const START = `mutation ($password: String!) { startTwoFactorEnrolment(input: { password: $password }) { secret uri qrSvg } }`;
const CONFIRM = `mutation ($input: TwoFactorCodeInput!) { confirmTwoFactorEnrolment(input: $input) { recoveryCodes token user { twoFactorEnabled recoveryCodesLeft } } }`;
const DISABLE = `mutation ($input: TwoFactorCodeInput!) { disableTwoFactor(input: $input) { user { twoFactorEnabled } } }`;
const REGENERATE = `mutation ($input: TwoFactorCodeInput!) { regenerateRecoveryCodes(input: $input) { recoveryCodes } }`;
const QUEUE = `{ moderationQueue(queue: PENDING) { edges { node { id } } } }`;
const ACCESS = `{ viewer { staffAccess twoFactorEnabled recoveryCodesLeft } settings { bannedWords } }`;
const SESSIONS = `{ viewer { sessions { id device current secondFactor createdAt lastUsedAt } } }`;
const REQUIRE = `mutation ($on: Boolean!) { updateSettings(input: { requireStaffTwoFactor: $on }) { settings { requireStaffTwoFactor } } }`;

const NOW = new Date('2026-11-26T10:00:00.000Z');
/** 30 seconds on: the app shows the next code. */
const later = (steps: number) => new Date(NOW.getTime() + steps * 30_000);

/** Enrols the holder of `token`; resolves the secret, the recovery codes and the new token. */
async function enrol(api: Api, token: string) {
  const { startTwoFactorEnrolment: started } = await api.ok(START, { password: PASSWORD }, token);
  const { confirmTwoFactorEnrolment: confirmed } = await api.ok(
    CONFIRM,
    { input: { code: totpCode(started.secret, api.deps.now()) } },
    token,
  );
  return {
    secret: started.secret as string,
    recoveryCodes: confirmed.recoveryCodes as string[],
    token: confirmed.token as string,
  };
}

/** The ticket a right password earns an account with two-factor sign-in. */
async function ticketOf(api: Api, email: string): Promise<string> {
  const answer = await api.request(SIGN_IN, { input: { email, password: PASSWORD } });
  expect(codeOf(answer)).toBe('TWO_FACTOR_CODE_REQUIRED');
  expect(answer.data).toBeNull();
  return answer.errors?.[0]?.extensions?.['ticket'] as string;
}

describe.each(testDialects())('two-factor sign-in and signed-in devices on %s', (dialect) => {
  const api = useApi(dialect);
  beforeEach(() => api.setNow(NOW));

  it('enrols with the first code, keeps the secret sealed, and shows ten recovery codes once', async () => {
    const { adminToken, adminId } = await api.install();
    // A session alone is not enough: the password too.
    const noPassword = await api.request(START, { password: 'not it at all' }, adminToken);
    expect(codeOf(noPassword)).toBe('INVALID_CREDENTIALS');
    const { startTwoFactorEnrolment: started } = await api.ok(
      START,
      { password: PASSWORD },
      adminToken,
    );
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.uri).toBe(
      `otpauth://totp/Example%20News:admin%40example.com?issuer=Example%20News&secret=${started.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(started.qrSvg).toMatch(/^<svg [^>]*viewBox/);
    const row = await api.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('id', '=', adminId)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^sealed:v1:/);
    expect(row.totp_secret).not.toContain(started.secret);
    expect(row.totp_enabled_at).toBeNull();

    const wrong = await api.request(CONFIRM, { input: { code: '000000' } }, adminToken);
    expect(codeOf(wrong)).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await api.ok(ACCESS, {}, adminToken)).viewer.twoFactorEnabled).toBe(false);

    const code = totpCode(started.secret, NOW);
    const { confirmTwoFactorEnrolment: confirmed } = await api.ok(
      CONFIRM,
      { input: { code } },
      adminToken,
    );
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    for (const recovery of confirmed.recoveryCodes)
      expect(recovery).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(confirmed.user).toEqual({ twoFactorEnabled: true, recoveryCodesLeft: 10 });
    // Stored as hashes only.
    const stored = await api.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(confirmed.recoveryCodes[0]);
    // The new token passed the second factor; every session signed before ended, as after a
    // password change (whoever held one did not set this up).
    expect((await api.ok(ACCESS, {}, confirmed.token)).viewer.staffAccess).toBe('GRANTED');
    expect(codeOf(await api.request(ACCESS, {}, adminToken))).toBe('TOKEN_INVALID');
    expect(await api.ok(QUEUE, {}, confirmed.token)).toEqual({ moderationQueue: { edges: [] } });
    // On already: a new enrolment is refused rather than replacing the secret in use.
    const again = await api.request(START, { password: PASSWORD }, confirmed.token);
    expect(codeOf(again)).toBe('INVALID_INPUT');
  });

  it('asks for a code after the password; each code and recovery code works once', async () => {
    await api.install();
    const admin = await api.ok(SIGN_IN, {
      input: { email: 'admin@example.com', password: PASSWORD },
    });
    const { secret, recoveryCodes } = await enrol(api, admin.signIn.token);

    // The app's code, at the next step (the enrolment spent this one).
    api.setNow(later(1));
    const ticket = await ticketOf(api, 'admin@example.com');
    expect(codeOf(await api.request(SECOND, { input: { ticket, code: '123456' } }))).toBe(
      'TWO_FACTOR_CODE_INVALID',
    );
    const code = totpCode(secret, later(1));
    const signedIn = await api.ok(SECOND, { input: { ticket, code } });
    expect(signedIn.signInSecondFactor.user.twoFactorEnabled).toBe(true);
    expect(signedIn.signInSecondFactor.deviceToken).toEqual(expect.any(String));
    expect(await api.ok(QUEUE, {}, signedIn.signInSecondFactor.token)).toBeTruthy();
    // The same code again, on a fresh ticket: refused (it was spent), and the ticket is spent too.
    const again = await ticketOf(api, 'admin@example.com');
    expect(codeOf(await api.request(SECOND, { input: { ticket: again, code } }))).toBe(
      'TWO_FACTOR_CODE_INVALID',
    );
    api.setNow(later(2));
    const next = totpCode(secret, later(2));
    expect(codeOf(await api.request(SECOND, { input: { ticket, code: next } }))).toBe(
      'TWO_FACTOR_CODE_INVALID',
    );

    // A recovery code, typed in capitals with a space: once.
    const recovery = recoveryCodes[3]!.toUpperCase().replace('-', ' ');
    const third = await ticketOf(api, 'admin@example.com');
    const byRecovery = await api.ok(SECOND, { input: { ticket: third, code: recovery } });
    const token = byRecovery.signInSecondFactor.token as string;
    expect((await api.ok(ACCESS, {}, token)).viewer).toEqual({
      staffAccess: 'GRANTED',
      twoFactorEnabled: true,
      recoveryCodesLeft: 9,
    });
    const fourth = await ticketOf(api, 'admin@example.com');
    expect(codeOf(await api.request(SECOND, { input: { ticket: fourth, code: recovery } }))).toBe(
      'TWO_FACTOR_CODE_INVALID',
    );
    // A forged ticket (an expired one fails the same check: tokens.test.ts proves signFor's expiry).
    expect(codeOf(await api.request(SECOND, { input: { ticket: 'x.y.z', code: next } }))).toBe(
      'TWO_FACTOR_CODE_INVALID',
    );
  });

  it('tries ten codes per account in 15 minutes, counted before each is checked', async () => {
    const { adminToken } = await api.install();
    const { secret } = await enrol(api, adminToken);
    api.setNow(later(1));
    const ticket = await ticketOf(api, 'admin@example.com');
    // The enrolment's code was one; nine wrong ones in parallel are all counted.
    const wrong = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        api.request(SECOND, { input: { ticket, code: `00000${i}` } }),
      ),
    );
    expect(wrong.map(codeOf)).toEqual(Array(9).fill('TWO_FACTOR_CODE_INVALID'));
    const right = await api.request(SECOND, {
      input: { ticket, code: totpCode(secret, later(1)) },
    });
    expect(codeOf(right)).toBe('RATE_LIMITED');
  });

  it('makes staff without a second factor readers when the organization requires it', async () => {
    const { adminToken } = await api.install();
    const { userId: modId } = await api.signUp('mod_one');
    await api.ok(
      `mutation ($id: ID!) { setUserRole(input: { userId: $id, role: MODERATOR }) { user { id } } }`,
      { id: modId },
      adminToken,
    );
    // Only an admin who uses it may require it.
    const refused = await api.request(REQUIRE, { on: true }, adminToken);
    expect(codeOf(refused)).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    const { token: admin, recoveryCodes } = await enrol(api, adminToken);
    const ssoMod = await api.signUp('sso_mod');
    const site = await api.db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
    await api.db
      .updateTable('users')
      .set({ role: 'MODERATOR', password_hash: null, sso_site_id: site.id, sso_id: 'host-7' })
      .where('id', '=', ssoMod.userId)
      .execute();
    // A moderator without a password who is not an SSO account (signed in with GitHub or an
    // OIDC issuer) is Parley's to ask, like one with a password.
    const providerMod = await api.signUp('provider_mod');
    await api.db
      .updateTable('users')
      .set({ role: 'MODERATOR', password_hash: null })
      .where('id', '=', providerMod.userId)
      .execute();
    expect(await api.ok(REQUIRE, { on: true }, admin)).toEqual({
      updateSettings: { settings: { requireStaffTwoFactor: true } },
    });

    const modSignIn = await api.ok(SIGN_IN, {
      input: { email: 'mod_one@example.com', password: PASSWORD },
    });
    const modToken = modSignIn.signIn.token as string;
    expect((await api.ok(ACCESS, {}, modToken)).viewer.staffAccess).toBe('ENROLMENT_NEEDED');
    expect(codeOf(await api.request(QUEUE, {}, modToken))).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    // An SSO moderator (no password here) is signed in by their site, which answers for their
    // second factor: nothing is asked of them.
    expect((await api.ok(ACCESS, {}, ssoMod.token)).viewer.staffAccess).toBe('GRANTED');
    expect((await api.ok(ACCESS, {}, providerMod.token)).viewer.staffAccess).toBe(
      'ENROLMENT_NEEDED',
    );
    expect(await api.ok(QUEUE, {}, ssoMod.token)).toBeTruthy();
    api.setNow(later(1));
    const { token: enrolled } = await enrol(api, modToken);
    expect((await api.ok(ACCESS, {}, enrolled)).viewer.staffAccess).toBe('GRANTED');
    expect(await api.ok(QUEUE, {}, enrolled)).toBeTruthy();

    // Required: it cannot be turned off, not even with a recovery code.
    const off = await api.request(DISABLE, { input: { code: recoveryCodes[0] } }, admin);
    expect(codeOf(off)).toBe('FORBIDDEN');
    // Commenters are not asked for anything, and cannot enrol.
    const reader = await api.signUp('reader_1');
    expect((await api.ok(ACCESS, {}, reader.token)).viewer.staffAccess).toBe('NOT_STAFF');
    const readerStart = await api.request(START, { password: PASSWORD }, reader.token);
    expect(codeOf(readerStart)).toBe('FORBIDDEN');
  });

  it('turns off with a recovery code, and gives new recovery codes for the app’s code', async () => {
    const { adminToken } = await api.install();
    const { token, secret, recoveryCodes } = await enrol(api, adminToken);
    api.setNow(later(1));
    const fresh = await api.ok(REGENERATE, { input: { code: totpCode(secret, later(1)) } }, token);
    expect(fresh.regenerateRecoveryCodes.recoveryCodes).toHaveLength(10);
    // The old sheet is void.
    const old = await api.request(DISABLE, { input: { code: recoveryCodes[0] } }, token);
    expect(codeOf(old)).toBe('TWO_FACTOR_CODE_INVALID');
    const off = await api.ok(
      DISABLE,
      { input: { code: fresh.regenerateRecoveryCodes.recoveryCodes[0] } },
      token,
    );
    expect(off.disableTwoFactor.user.twoFactorEnabled).toBe(false);
    expect(await api.db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
    // Both ends are in the audit log, with what confirmed the change (never the code itself).
    const audited = await api.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'changes'])
      .orderBy('created_at')
      .execute();
    // (Regenerated and turned off at the same moment of the test's clock: compared as a set.)
    expect(audited.map((row) => `${row.action} by ${row.actor_name}`).sort()).toEqual([
      'RECOVERY_CODES_REGENERATE by admin',
      'TWO_FACTOR_DISABLE by admin',
      'TWO_FACTOR_ENABLE by admin',
    ]);
    const disabled = audited.find((row) => row.action === 'TWO_FACTOR_DISABLE');
    expect(disabled?.changes).toContain('"recovery code"');
    expect(JSON.stringify(audited)).not.toContain(fresh.regenerateRecoveryCodes.recoveryCodes[0]);
    // Off: the password alone signs in again, and that session may moderate.
    const plain = await api.ok(SIGN_IN, {
      input: { email: 'admin@example.com', password: PASSWORD },
    });
    expect(await api.ok(QUEUE, {}, plain.signIn.token)).toBeTruthy();
  });

  it('a password-reset link signs in without the second factor: a reader until signed in with it', async () => {
    const { adminToken } = await api.install();
    await enrol(api, adminToken);
    await api.ok(`mutation { requestPasswordReset(input: { email: "admin@example.com" }) { ok } }`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const link = tokenFromMail(api, '/account/reset-password');
    const reset = await api.ok(
      `mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) { token } }`,
      { input: { token: link, password: 'another long password' } },
    );
    expect(codeOf(await api.request(QUEUE, {}, reset.resetPassword.token))).toBe(
      'SECOND_FACTOR_REQUIRED',
    );
  });

  describe('signed-in devices', () => {
    it('lists the account’s sessions, ends one, and never another account’s', async () => {
      const { adminToken } = await api.install();
      const phone = await api.ok(SIGN_IN, {
        input: { email: 'admin@example.com', password: PASSWORD },
      });
      const phoneToken = phone.signIn.token as string;
      const listed = await api.ok(SESSIONS, {}, adminToken);
      expect(listed.viewer.sessions).toHaveLength(2);
      expect(listed.viewer.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      const phoneSession = (await api.ok(SESSIONS, {}, phoneToken)).viewer.sessions.find(
        (s: { current: boolean }) => s.current,
      );

      // Another account cannot end it, nor see it.
      const reader = await api.signUp('reader_1');
      const foreign = await api.request(
        `mutation ($id: ID!) { endSession(input: { id: $id }) { ok } }`,
        { id: phoneSession.id },
        reader.token,
      );
      expect(codeOf(foreign)).toBe('NOT_FOUND');
      expect((await api.ok(SESSIONS, {}, reader.token)).viewer.sessions).toHaveLength(1);
      expect(await api.ok(`{ viewer { id } }`, {}, phoneToken)).toBeTruthy();

      await api.ok(
        `mutation ($id: ID!) { endSession(input: { id: $id }) { ok } }`,
        { id: phoneSession.id },
        adminToken,
      );
      expect(codeOf(await api.request(`{ viewer { id } }`, {}, phoneToken))).toBe('TOKEN_INVALID');
      expect((await api.ok(SESSIONS, {}, adminToken)).viewer.sessions).toHaveLength(1);

      // Signing out everywhere ends (and unlists) them all.
      await api.ok(`mutation { signOutEverywhere { ok } }`, {}, adminToken);
      const again = await api.ok(SIGN_IN, {
        input: { email: 'admin@example.com', password: PASSWORD },
      });
      const after = await api.ok(SESSIONS, {}, again.signIn.token);
      expect(after.viewer.sessions).toEqual([
        expect.objectContaining({ current: true, secondFactor: false }),
      ]);
    });

    it('marks a session used at most every five minutes', async () => {
      const { adminToken } = await api.install();
      const first = (await api.ok(SESSIONS, {}, adminToken)).viewer.sessions[0];
      expect(first.lastUsedAt).toBe(NOW.toISOString());
      api.setNow(new Date(NOW.getTime() + 60_000));
      await api.ok(`{ viewer { id } }`, {}, adminToken);
      expect((await api.ok(SESSIONS, {}, adminToken)).viewer.sessions[0].lastUsedAt).toBe(
        NOW.toISOString(),
      );
      const sixMinutes = new Date(NOW.getTime() + 6 * 60_000);
      api.setNow(sixMinutes);
      await api.ok(`{ viewer { id } }`, {}, adminToken);
      expect((await api.ok(SESSIONS, {}, adminToken)).viewer.sessions[0].lastUsedAt).toBe(
        sixMinutes.toISOString(),
      );
    });
  });
});
