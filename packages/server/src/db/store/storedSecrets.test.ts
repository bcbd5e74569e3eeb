import { randomBytes } from 'node:crypto';
import { createSecretBox, ssoKeyPurpose } from '../../auth/secretBox';
import { createSignInProvider, providerSecret, providersForSite } from './signInProviders';
import { testDialects, useTestDatabase } from '../testDatabases';
import { testBox } from '../testFixtures';
import { getOrganization, install, updateSettings } from './organization';
import { addSsoKey, listActiveSsoKeys, revokeSsoKey } from './sites';
import { forgetUnreadableSecrets, sealStoredSecrets, surveyStoredSecrets } from './storedSecrets';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const lostKey = randomBytes(32);
const oldBox = createSecretBox({ current: oldKey });
const lostBox = createSecretBox({ current: lostKey });
/** After a rotation: seals under the new key, still opens the old one's values. */
const rotatedBox = createSecretBox({ current: newKey, previous: [oldKey] });
const newOnly = createSecretBox({ current: newKey });

describe.each(testDialects())('stored secrets on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  function installed(box = oldBox) {
    return install(
      t.db,
      {
        organization: { name: 'Daily', contactEmail: 'a@d.example', url: 'https://d.example' },
        site: { name: 'Daily', url: 'https://d.example', allowedOrigins: ['https://d.example'] },
        admin: { email: 'admin@d.example', username: 'admin', passwordHash: 'hash' },
      },
      box,
    );
  }

  async function storedKey(id: string): Promise<string> {
    const row = await t.db
      .selectFrom('sso_keys')
      .select('secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.secret;
  }

  const storedPassword = async () => (await getOrganization(t.db))!.settings.smtpPassword;

  it('stores a new key sealed, which opens to the secret its creator was given', async () => {
    const { key } = await installed(testBox);
    const stored = await storedKey(key.id);
    expect(stored).not.toContain(key.secret);
    expect(testBox.open(stored, ssoKeyPurpose(key.id))).toBe(key.secret);
  });

  it('binds a sealed key to its row: copied onto another key, it opens nowhere', async () => {
    const { site, key } = await installed(newOnly);
    const other = await addSsoKey(t.db, site.id, newOnly);
    await t.db
      .updateTable('sso_keys')
      .set({ secret: await storedKey(key.id) })
      .where('id', '=', other.id)
      .execute();
    expect((await surveyStoredSecrets(t.db, newOnly)).unreadable).toEqual([
      { what: `SSO key ${other.id} of site ${site.id}` },
    ]);
  });

  it('seals what was stored in clear or under a previous key, once, keeping the values', async () => {
    const { site, key } = await installed();
    const clear = await addSsoKey(t.db, site.id, oldBox);
    await t.db
      .updateTable('sso_keys')
      .set({ secret: clear.secret })
      .where('id', '=', clear.id)
      .execute();
    await updateSettings(t.db, { smtpPassword: 'clear-password', smtpUser: 'u' });

    // A survey changes nothing.
    const before = await storedKey(clear.id);
    expect(await surveyStoredSecrets(t.db, rotatedBox)).toEqual({
      unreadable: [],
      pending: 3,
      readable: 3,
    });
    expect(await storedKey(clear.id)).toBe(before);

    expect(await sealStoredSecrets(t.db, rotatedBox)).toEqual({
      unreadable: [],
      pending: 3,
      readable: 3,
    });
    // Now under the new key alone, with the same values; nothing in clear.
    expect(newOnly.open(await storedKey(key.id), ssoKeyPurpose(key.id))).toBe(key.secret);
    expect(await storedKey(clear.id)).not.toContain(clear.secret);
    expect(newOnly.open(await storedKey(clear.id), ssoKeyPurpose(clear.id))).toBe(clear.secret);
    expect(await storedPassword()).not.toContain('clear-password');
    expect(newOnly.open(await storedPassword(), 'settings.smtpPassword')).toBe('clear-password');
    // The rest of the settings untouched.
    expect((await getOrganization(t.db))!.settings.smtpUser).toBe('u');

    expect(await sealStoredSecrets(t.db, rotatedBox)).toEqual({
      unreadable: [],
      pending: 0,
      readable: 3,
    });
  });

  it('reports what no key opens, changing nothing, and ignores keys no longer used', async () => {
    const { site, key } = await installed();
    const revoked = await addSsoKey(t.db, site.id, lostBox);
    await revokeSsoKey(t.db, revoked.id);
    // Rotated away long ago: past its overlap, never read again.
    const expired = await addSsoKey(t.db, site.id, lostBox);
    await t.db
      .updateTable('sso_keys')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', expired.id)
      .execute();
    const lost = await addSsoKey(t.db, site.id, lostBox);
    await updateSettings(t.db, {
      smtpPassword: lostBox.seal('pw', 'settings.smtpPassword'),
    });
    const before = await storedKey(lost.id);

    const report = await sealStoredSecrets(t.db, newOnly);
    // The install's key (sealed under the old key) and the lost one; not the revoked one.
    expect(report.unreadable.map((u) => u.what).sort()).toEqual(
      [
        `SSO key ${key.id} of site ${site.id}`,
        `SSO key ${lost.id} of site ${site.id}`,
        'the SMTP password (Configure › Email)',
      ].sort(),
    );
    expect(report.pending).toBe(0);
    expect(await storedKey(lost.id)).toBe(before);
    // With SMTP_URL set the stored password is not used: it stops nothing.
    const withSmtpUrl = await surveyStoredSecrets(t.db, newOnly, { smtpFromEnvironment: true });
    expect(withSmtpUrl.unreadable).toHaveLength(2);
  });

  it('forgets what no key opens: those keys revoked, that password cleared, the rest kept', async () => {
    const { site, key } = await installed(newOnly);
    const lost = await addSsoKey(t.db, site.id, lostBox);
    await updateSettings(t.db, { smtpPassword: lostBox.seal('pw', 'settings.smtpPassword') });

    const forgotten = await forgetUnreadableSecrets(t.db, newOnly);
    expect(forgotten.map((f) => f.what)).toEqual([
      `SSO key ${lost.id} of site ${site.id} (revoked)`,
      'the SMTP password (cleared)',
    ]);
    expect((await listActiveSsoKeys(t.db, site.id)).map((k) => k.id)).toEqual([key.id]);
    expect(await storedPassword()).toBe('');
    expect(await sealStoredSecrets(t.db, newOnly)).toEqual({
      unreadable: [],
      pending: 0,
      readable: 1,
    });
    expect(await forgetUnreadableSecrets(t.db, newOnly)).toEqual([]);
  });

  it('seals a sign-in provider’s client secret again, and clears one no key opens', async () => {
    const { site } = await installed(newOnly);
    const kept = await createSignInProvider(t.db, oldBox, {
      kind: 'GITHUB',
      name: 'GitHub',
      issuerUrl: '',
      clientId: 'gh',
      clientSecret: 'gh-secret',
      siteIds: [site.id],
    });
    const lost = await createSignInProvider(t.db, lostBox, {
      kind: 'GOOGLE',
      name: 'Google',
      issuerUrl: '',
      clientId: 'g',
      clientSecret: 'g-secret',
      siteIds: [site.id],
    });
    const survey = await surveyStoredSecrets(t.db, rotatedBox);
    expect(survey.unreadable.map((u) => u.what)).toEqual([
      `the client secret of sign-in provider Google (${lost.id})`,
    ]);
    await sealStoredSecrets(t.db, rotatedBox);
    expect(await providerSecret(t.db, newOnly, kept.id)).toBe('gh-secret');
    await forgetUnreadableSecrets(t.db, newOnly);
    // Cleared, it leaves every popup until an admin enters a secret again.
    expect((await providersForSite(t.db, site.id)).map((p) => p.name)).toEqual(['GitHub']);
  });
});
