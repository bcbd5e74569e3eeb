import { createToken } from '../../../db/store/tokens';
import { testDialects } from '../../../db/testDatabases';
import { useApi } from '../../testing/useApi';
import { ACCOUNT_PATHS, UNSUBSCRIBE_TOKEN_TTL_SECONDS } from './accountEmails';
import { codeOf } from './accountTestKit';

const UNSUBSCRIBE = `mutation ($input: TokenInput!) {
  unsubscribe(input: $input) { user { id } }
}`;
const SETTINGS = `{ viewer { notificationSettings { onReply onFeatured onModeration } } }`;
const DAY_MS = 86_400_000;

describe.each(testDialects())('unsubscribe by emailed link on %s', (dialect) => {
  const api = useApi(dialect);

  /** The token a notification email's unsubscribe link would carry. */
  async function unsubscribeToken(userId: string, purpose: 'UNSUBSCRIBE' | 'CONFIRM_EMAIL') {
    const { token } = await createToken(api.db, {
      purpose,
      userId,
      ttlSeconds: UNSUBSCRIBE_TOKEN_TTL_SECONDS,
    });
    return token;
  }

  it('links to the account page the console serves', () => {
    expect(ACCOUNT_PATHS.unsubscribe).toBe('/account/unsubscribe');
  });

  it('turns every notification off, signed out, and works once', async () => {
    await api.install();
    const { token: session, userId } = await api.signUp('reader_1');
    const token = await unsubscribeToken(userId, 'UNSUBSCRIBE');
    const data = await api.ok(UNSUBSCRIBE, { input: { token } });
    expect(data.unsubscribe.user).toEqual({ id: userId });
    expect((await api.ok(SETTINGS, {}, session)).viewer.notificationSettings).toEqual({
      onReply: false,
      onFeatured: false,
      onModeration: false,
    });
    const again = await api.request(UNSUBSCRIBE, { input: { token } });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'TOKEN_INVALID', field: 'token' });
  });

  it('answers TOKEN_EXPIRED after 30 days and changes nothing', async () => {
    await api.install();
    const { token: session, userId } = await api.signUp('reader_1');
    const token = await unsubscribeToken(userId, 'UNSUBSCRIBE');
    api.setNow(new Date(Date.now() + 31 * DAY_MS));
    expect(codeOf(await api.request(UNSUBSCRIBE, { input: { token } }))).toBe('TOKEN_EXPIRED');
    api.setNow(new Date());
    expect((await api.ok(SETTINGS, {}, session)).viewer.notificationSettings).toEqual({
      onReply: true,
      onFeatured: true,
      onModeration: true,
    });
  });

  it('refuses a token made for something else', async () => {
    await api.install();
    const { userId } = await api.signUp('reader_1');
    const token = await unsubscribeToken(userId, 'CONFIRM_EMAIL');
    expect(codeOf(await api.request(UNSUBSCRIBE, { input: { token } }))).toBe('TOKEN_INVALID');
  });
});
