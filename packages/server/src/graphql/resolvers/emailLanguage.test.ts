// Emails in each recipient's language (users.locale): set by the popup's sign-up and sign-in and
// the console's switch, else the site's comment language, else the organization's; against the
// real server and database.
import { testDialects } from '../../db/testDatabases';
import { emailWriter } from '../../email/templates';
import { PASSWORD, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`;
const CONFIRM = `mutation ($input: ConfirmSignUpInput!) { confirmSignUp(input: $input) { token } }`;
const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`;
const UPDATE_LOCALE = `mutation ($input: UpdateLocaleInput!) { updateLocale(input: $input) { user { id } } }`;
const DOWNLOAD = `mutation { requestCommentsDownload { ok } }`;

/** The subject of the download email in `locale`: what the next one must say. */
const downloadSubject = (locale: string) => emailWriter(locale).t('email.download.subject');

/** Asks for the download email and answers it (sent before the mutation answers). */
async function downloadEmail(api: Api, token: string) {
  api.mail.length = 0;
  await api.ok(DOWNLOAD, {}, token);
  const [message] = api.mail;
  if (!message) throw new Error('No download email');
  return message;
}

const localeOf = async (api: Api, email: string) =>
  (
    await api.db
      .selectFrom('users')
      .select('locale')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).locale;

describe.each(testDialects())('emails in the recipient’s language on %s', (dialect) => {
  const api = useApi(dialect);

  it('a sign-up in Spanish gets its code in Spanish, and the account’s emails stay Spanish', async () => {
    await api.install();
    const email = 'ana@example.com';
    await api.ok(SIGN_UP, { input: { email, username: 'ana', password: PASSWORD, locale: 'es' } });
    // Sent in the background: looked at before signUpCode takes it out of the inbox.
    let codeEmail = api.mail.find((message) => message.to === email);
    for (let i = 0; i < 100 && !codeEmail; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      codeEmail = api.mail.find((message) => message.to === email);
    }
    const code = await api.signUpCode(email);
    expect(codeEmail?.subject).toBe(emailWriter('es').t('email.signUpCode.subject'));
    expect(codeEmail?.html).toContain('<html lang="es" dir="ltr">');
    const { confirmSignUp } = await api.ok(CONFIRM, { input: { email, code } });
    expect(await localeOf(api, email)).toBe('es');
    expect((await downloadEmail(api, confirmSignUp.token)).subject).toBe(downloadSubject('es'));
  });

  it('a sign-in keeps the popup’s language (a tag matched by its language), and Arabic reads right to left', async () => {
    await api.install();
    const { token } = await api.signUp('rami');
    expect(await localeOf(api, 'rami@example.com')).toBeNull();
    await api.ok(SIGN_IN, {
      input: { email: 'rami@example.com', password: PASSWORD, locale: 'ar-EG' },
    });
    expect(await localeOf(api, 'rami@example.com')).toBe('ar');
    const message = await downloadEmail(api, token);
    expect(message.subject).toBe(downloadSubject('ar'));
    expect(message.html).toContain('<html lang="ar" dir="rtl">');
  });

  it('without a language of their own: the site’s comment language, else the organization’s', async () => {
    await api.install();
    const { token } = await api.signUp('kim');
    // Installed in English, each page's own language for the comments.
    expect((await downloadEmail(api, token)).subject).toBe(downloadSubject('en'));
    await api.db.updateTable('organization').set({ locale: 'de' }).execute();
    expect((await downloadEmail(api, token)).subject).toBe(downloadSubject('de'));
    await api.db
      .updateTable('organization')
      .set({ settings: JSON.stringify({ locale: 'fr' }) })
      .execute();
    expect((await downloadEmail(api, token)).subject).toBe(downloadSubject('fr'));
    // Their own, once known, comes first.
    await api.ok(UPDATE_LOCALE, { input: { locale: 'ja' } }, token);
    expect((await downloadEmail(api, token)).subject).toBe(downloadSubject('ja'));
    // Chosen, it stays: a sign-in from a page in another language does not change it.
    await api.ok(SIGN_IN, {
      input: { email: 'kim@example.com', password: PASSWORD, locale: 'es' },
    });
    expect(await localeOf(api, 'kim@example.com')).toBe('ja');
  });

  it('refuses a language Parley has no text in with INVALID_INPUT on locale, and keeps what was kept', async () => {
    await api.install();
    const { token } = await api.signUp('lee');
    await api.ok(UPDATE_LOCALE, { input: { locale: 'ko' } }, token);
    for (const [query, variables, auth] of [
      [UPDATE_LOCALE, { input: { locale: 'sv' } }, token],
      [SIGN_IN, { input: { email: 'lee@example.com', password: PASSWORD, locale: 'xx-YY' } }],
      [
        SIGN_UP,
        { input: { email: 'new@example.com', username: 'newbie', password: PASSWORD, locale: '' } },
      ],
    ] as const) {
      const answer = await api.request(query, variables, auth);
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'locale',
      });
    }
    expect(await localeOf(api, 'lee@example.com')).toBe('ko');
    // The refused sign-up sent no code and left nothing pending.
    expect(api.mail.filter((message) => message.to === 'new@example.com')).toEqual([]);
    expect(await api.db.selectFrom('pending_sign_ups').selectAll().execute()).toEqual([]);
    // Signed out, no language to keep: UNAUTHENTICATED, as every account mutation.
    const anonymous = await api.request(UPDATE_LOCALE, { input: { locale: 'es' } });
    expect(anonymous.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
  });
});
