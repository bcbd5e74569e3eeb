import { getOrganization } from '../../../db/store/organization';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const UPDATE = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) {
    settings {
      installed premod reportThreshold editWindowSeconds maxCommentLength sessionSeconds
      bannedWords suspectWords locale organization { name contactEmail url locale }
    }
  }
}`;

describe.each(testDialects())('updateSettings on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('stores a partial update and answers the settings as Query.settings shapes them', async () => {
    const data = await api.ok(
      UPDATE,
      {
        input: {
          premod: 'LINKS',
          reportThreshold: 1,
          editWindowSeconds: 0,
          maxCommentLength: 20000,
          sessionSeconds: 300,
          bannedWords: ['  Spam ', 'spam', '', 'EGGS'],
          suspectWords: [],
          locale: 'pt-br',
          organization: {
            name: ' Renamed ',
            contactEmail: 'new@example.com',
            url: 'https://n.example',
          },
        },
      },
      c.admin.token,
    );
    expect(data.updateSettings.settings).toEqual({
      installed: true,
      premod: 'LINKS',
      reportThreshold: 1,
      editWindowSeconds: 0,
      maxCommentLength: 20000,
      sessionSeconds: 300,
      bannedWords: ['spam', 'eggs'],
      suspectWords: [],
      locale: 'pt-BR',
      organization: {
        name: 'Renamed',
        contactEmail: 'new@example.com',
        url: 'https://n.example/',
        locale: 'en',
      },
    });
    const read = await api.ok(
      `{ settings { premod reportThreshold bannedWords } }`,
      {},
      c.admin.token,
    );
    expect(read.settings).toEqual({
      premod: 'LINKS',
      reportThreshold: 1,
      bannedWords: ['spam', 'eggs'],
    });
  });

  it("takes an empty locale: each thread follows its page's language (the default)", async () => {
    const before = await api.ok(`{ settings { locale } }`, {}, c.admin.token);
    expect(before.settings.locale).toBe('');
    await api.ok(UPDATE, { input: { locale: 'fr' } }, c.admin.token);
    const data = await api.ok(UPDATE, { input: { locale: '  ' } }, c.admin.token);
    expect(data.updateSettings.settings.locale).toBe('');
  });

  it('leaves fields not sent as they were', async () => {
    await api.ok(UPDATE, { input: { reportThreshold: 7 } }, c.admin.token);
    const data = await api.ok(UPDATE, { input: { editWindowSeconds: 60 } }, c.admin.token);
    expect(data.updateSettings.settings).toMatchObject({
      reportThreshold: 7,
      editWindowSeconds: 60,
    });
  });

  it.each([
    ['reportThreshold', 0],
    ['editWindowSeconds', -1],
    ['editWindowSeconds', 86401],
    ['maxCommentLength', 0],
    ['maxCommentLength', 20001],
    ['sessionSeconds', 299],
    ['locale', 'not a locale!'],
  ])('refuses %s = %p with INVALID_INPUT on that field, storing nothing', async (field, value) => {
    const answer = await api.request(
      UPDATE,
      { input: { premod: 'ALL', [field]: value } },
      c.admin.token,
    );
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
    expect((await getOrganization(api.db))?.settings.premod).toBe('OFF');
  });

  it.each([
    ['organization.name', { name: ' ', contactEmail: 'a@example.com', url: 'https://a.example' }],
    ['organization.contactEmail', { name: 'A', contactEmail: 'nope', url: 'https://a.example' }],
    ['organization.url', { name: 'A', contactEmail: 'a@example.com', url: 'ftp://a.example' }],
  ])('refuses a bad %s, storing nothing', async (field, organization) => {
    const answer = await api.request(
      UPDATE,
      { input: { reportThreshold: 9, organization } },
      c.admin.token,
    );
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
    const stored = await getOrganization(api.db);
    expect(stored).toMatchObject({ name: 'Example News', settings: { reportThreshold: 3 } });
  });

  describe('SMTP settings', () => {
    const SMTP_FIELDS =
      'smtpHost smtpPort smtpSecure smtpUser smtpPasswordSet smtpFrom smtpFromEnvironment';
    const SMTP_UPDATE = `mutation ($input: UpdateSettingsInput!) {
      updateSettings(input: $input) { settings { ${SMTP_FIELDS} } }
    }`;
    const SMTP_INPUT = {
      smtpHost: ' smtp.example.com ',
      smtpPort: 465,
      smtpSecure: true,
      smtpUser: 'parley',
      smtpPassword: 's3cret ',
      smtpFrom: 'news@example.com',
    };

    /** The stored password, opened; the stored value itself is sealed, never in clear. */
    async function storedPassword(): Promise<string> {
      const stored = (await getOrganization(api.db))!.settings.smtpPassword;
      expect(stored).not.toContain('s3cret');
      return api.deps.box.open(stored, 'settings.smtpPassword');
    }

    it('stores them, never answers the password, and keeps it when sent empty', async () => {
      const data = await api.ok(SMTP_UPDATE, { input: SMTP_INPUT }, c.admin.token);
      expect(data.updateSettings.settings).toEqual({
        smtpHost: 'smtp.example.com',
        smtpPort: 465,
        smtpSecure: true,
        smtpUser: 'parley',
        smtpPasswordSet: true,
        smtpFrom: 'news@example.com',
        smtpFromEnvironment: false,
      });
      expect(JSON.stringify(data)).not.toContain('s3cret');
      expect(await storedPassword()).toBe('s3cret ');

      await api.ok(SMTP_UPDATE, { input: { smtpPort: 587, smtpPassword: '' } }, c.admin.token);
      expect((await getOrganization(api.db))?.settings.smtpPort).toBe(587);
      expect(await storedPassword()).toBe('s3cret ');
    });

    it('drops the stored password when the host or user changes without a new one', async () => {
      await api.ok(SMTP_UPDATE, { input: SMTP_INPUT }, c.admin.token);
      // The same host again (the form sends every field) keeps it.
      await api.ok(SMTP_UPDATE, { input: { ...SMTP_INPUT, smtpPassword: '' } }, c.admin.token);
      expect(await storedPassword()).toBe('s3cret ');
      await api.ok(SMTP_UPDATE, { input: { smtpHost: 'evil.example' } }, c.admin.token);
      expect(await storedPassword()).toBe('');
    });

    it('has no way to read the password back', async () => {
      const answer = await api.request(`{ settings { smtpPassword } }`, {}, c.admin.token);
      expect(answer.errors?.[0]?.message).toMatch(/smtpPassword/);
    });

    it('removes the password with the user name', async () => {
      await api.ok(SMTP_UPDATE, { input: SMTP_INPUT }, c.admin.token);
      const data = await api.ok(SMTP_UPDATE, { input: { smtpUser: '' } }, c.admin.token);
      expect(data.updateSettings.settings).toMatchObject({ smtpUser: '', smtpPasswordSet: false });
    });

    it('says when SMTP_URL overrides them', async () => {
      api.deps.mailer.smtpFromEnvironment = true;
      const data = await api.ok(`{ settings { smtpFromEnvironment } }`, {}, c.admin.token);
      expect(data.settings.smtpFromEnvironment).toBe(true);
    });

    it('shows them to admins only', async () => {
      await api.ok(SMTP_UPDATE, { input: SMTP_INPUT }, c.admin.token);
      for (const token of [c.moderator.token, c.commenter.token, undefined]) {
        const data = await api.ok(`{ settings { ${SMTP_FIELDS} } }`, {}, token);
        expect(Object.values(data.settings)).toEqual(Array(7).fill(null));
      }
    });

    it('lets only admins change them', async () => {
      const answer = await api.request(SMTP_UPDATE, { input: SMTP_INPUT }, c.moderator.token);
      expect(answer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await getOrganization(api.db))?.settings.smtpHost).toBe('');
    });

    it.each([
      ['smtpHost', 'smtp://mail.example.com'],
      ['smtpHost', 'mail.example.com:587'],
      ['smtpHost', 'bad host'],
      ['smtpPort', 0],
      ['smtpPort', 65536],
      ['smtpFrom', 'not an address'],
    ])(
      'refuses %s = %p with INVALID_INPUT on that field, storing nothing',
      async (field, value) => {
        const answer = await api.request(
          SMTP_UPDATE,
          { input: { ...SMTP_INPUT, [field]: value } },
          c.admin.token,
        );
        expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
        expect((await getOrganization(api.db))?.settings).toMatchObject({
          smtpHost: '',
          smtpPassword: '',
        });
      },
    );

    it('accepts an IP address as the host', async () => {
      const data = await api.ok(SMTP_UPDATE, { input: { smtpHost: '127.0.0.1' } }, c.admin.token);
      expect(data.updateSettings.settings.smtpHost).toBe('127.0.0.1');
    });
  });
});
