import { isParleyError } from '../../ParleyError';
import { countRows, testBox } from '../testFixtures';
import { testDialects, useTestDatabase } from '../testDatabases';
import { getOrganization, getSettings, install, updateSettings } from './organization';
import type { InstallInput } from './organization';
import { listActiveSsoKeys } from './sites';
import { findUserByEmail } from './users';

const input: InstallInput = {
  organization: { name: 'Daily', contactEmail: 'team@daily.example', url: 'https://daily.example' },
  site: { name: 'Daily', url: 'https://daily.example', allowedOrigins: ['https://Daily.example/'] },
  admin: { email: 'Admin@Daily.example', username: 'admin', passwordHash: 'argon2-hash' },
};

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isParleyError(error) ? error.code : String(error);
  }
}

describe.each(testDialects())('organization store on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  it('installs the organization, its site with an SSO key and an admin', async () => {
    const { organization, site, admin } = await install(t.db, input, testBox);
    expect(organization.name).toBe('Daily');
    expect(site.allowedOrigins).toEqual(['https://daily.example']);
    expect(admin).toMatchObject({ role: 'ADMIN', emailVerified: true, username: 'admin' });
    expect(await findUserByEmail(t.db, 'admin@daily.example')).toMatchObject({ id: admin.id });
    expect(await listActiveSsoKeys(t.db, site.id)).toHaveLength(1);
  });

  it('answers ALREADY_INSTALLED to a second install and keeps the first', async () => {
    await install(t.db, input, testBox);
    expect(
      await codeOf(
        install(t.db, { ...input, organization: { ...input.organization, name: 'X' } }, testBox),
      ),
    ).toBe('ALREADY_INSTALLED');
    expect((await getOrganization(t.db))?.name).toBe('Daily');
    expect(await countRows(t.db, 'sites')).toBe(1);
  });

  it('lets exactly one of several concurrent installs win', async () => {
    const codes = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        codeOf(
          install(t.db, { ...input, admin: { ...input.admin, username: `admin${i}` } }, testBox),
        ),
      ),
    );
    expect(codes.filter((c) => c === undefined)).toHaveLength(1);
    expect(codes.filter((c) => c === 'ALREADY_INSTALLED')).toHaveLength(3);
    expect(await countRows(t.db, 'organization')).toBe(1);
    expect(await countRows(t.db, 'users')).toBe(1);
    expect(await countRows(t.db, 'sites')).toBe(1);
  });

  it('is all or nothing: a failure after the organization row leaves no row anywhere', async () => {
    // The site's origin is invalid: the organization is already inserted when it is checked.
    const broken = { ...input, site: { ...input.site, allowedOrigins: ['not an origin'] } };
    expect(await codeOf(install(t.db, broken, testBox))).toBe('INVALID_INPUT');
    for (const table of ['organization', 'sites', 'sso_keys', 'users'] as const) {
      expect(await countRows(t.db, table)).toBe(0);
    }
    // And the install can then succeed.
    await expect(install(t.db, input, testBox)).resolves.toBeDefined();
  });

  it('rolls back the organization and site when the admin cannot be created', async () => {
    const db = t.db;
    const failing = install(
      db,
      {
        ...input,
        admin: { ...input.admin, email: null as unknown as string },
      },
      testBox,
    );
    // The missing email throws while the admin is built, after the organization and site rows.
    await expect(failing).rejects.toMatchObject({ name: 'TypeError' });
    expect(await countRows(db, 'organization')).toBe(0);
    expect(await countRows(db, 'sites')).toBe(0);
  });

  it('reads defaults before install and merges setting updates after', async () => {
    expect((await getSettings(t.db)).reportThreshold).toBe(3);
    expect(await codeOf(updateSettings(t.db, { reportThreshold: 5 }))).toBe('NOT_INSTALLED');
    await install(t.db, input, testBox);
    await updateSettings(t.db, { reportThreshold: 5 });
    const settings = await updateSettings(t.db, { premod: 'ALL', editWindowSeconds: 0 });
    expect(settings).toMatchObject({ reportThreshold: 5, premod: 'ALL', editWindowSeconds: 0 });
    expect((await getSettings(t.db)).editWindowSeconds).toBe(0);
    expect((await getSettings(t.db)).maxCommentLength).toBe(5000);
  });
});
