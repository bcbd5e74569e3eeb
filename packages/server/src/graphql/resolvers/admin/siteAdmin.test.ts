import { ssoKeyPurpose } from '../../../auth/secretBox';
import { listActiveSsoKeys } from '../../../db/store/sites';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { SITE_ORIGIN, useApi } from '../../testing/useApi';

const SITE = `site { id name url allowedOrigins ssoKeys { id secret revoked expiresAt } }`;
const CREATE = `mutation ($input: CreateSiteInput!) { createSite(input: $input) { ${SITE} } }`;
const UPDATE = `mutation ($input: UpdateSiteInput!) { updateSite(input: $input) { ${SITE} } }`;
const ROTATE = `mutation ($input: RotateSsoKeyInput!) { rotateSsoKey(input: $input) { ${SITE} } }`;
const SITES = `{ sites { id name ssoKeys { id secret } } }`;

describe.each(testDialects())('sites on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('creates a site with normalized origins (its own included) and shows its key once', async () => {
    const data = await api.ok(
      CREATE,
      {
        input: {
          name: ' Blog ',
          url: 'https://Blog.example/home',
          allowedOrigins: ['https://WWW.blog.example:443/', 'https://www.blog.example'],
        },
      },
      c.admin.token,
    );
    const site = data.createSite.site;
    expect(site).toMatchObject({
      name: 'Blog',
      url: 'https://blog.example/home',
      allowedOrigins: ['https://www.blog.example', 'https://blog.example'],
    });
    expect(site.ssoKeys).toHaveLength(1);
    expect(site.ssoKeys[0].secret).toEqual(expect.any(String));
    const later = await api.ok(SITES, {}, c.admin.token);
    const listed = later.sites.find((s: any) => s.id === site.id);
    expect(listed.ssoKeys).toEqual([{ id: site.ssoKeys[0].id, secret: null }]);
  });

  it('refuses a bad origin with INVALID_INPUT naming its index', async () => {
    const answer = await api.request(
      CREATE,
      {
        input: {
          name: 'B',
          url: 'https://b.example',
          allowedOrigins: ['https://ok.example', 'https://x.example/path'],
        },
      },
      c.admin.token,
    );
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'allowedOrigins.1',
    });
  });

  it('updates name and origins; a new URL adds its origin', async () => {
    const data = await api.ok(
      UPDATE,
      { input: { siteId: c.site.id, name: 'Renamed', url: 'https://moved.example/' } },
      c.admin.token,
    );
    expect(data.updateSite.site).toMatchObject({
      name: 'Renamed',
      allowedOrigins: [SITE_ORIGIN, 'https://moved.example'],
    });
    const missing = await api.request(
      UPDATE,
      { input: { siteId: 'nope', name: 'X' } },
      c.admin.token,
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('rotates: the new secret once, the old key kept for the overlap, secrets never again', async () => {
    const [old] = await listActiveSsoKeys(api.db, c.site.id);
    const data = await api.ok(ROTATE, { input: { siteId: c.site.id } }, c.admin.token);
    const keys = data.rotateSsoKey.site.ssoKeys;
    const fresh = (await listActiveSsoKeys(api.db, c.site.id)).find((k) => k.id !== old!.id)!;
    expect(keys).toEqual([
      {
        id: fresh.id,
        secret: api.deps.box.open(fresh.sealedSecret, ssoKeyPurpose(fresh.id)),
        revoked: false,
        expiresAt: null,
      },
      { id: old!.id, secret: null, revoked: false, expiresAt: expect.any(String) },
    ]);
    const again = await api.ok(SITES, {}, c.admin.token);
    expect(again.sites[0].ssoKeys.map((k: any) => k.secret)).toEqual([null, null]);
  });

  it('rotates with revokeOld: the old key stops verifying at once', async () => {
    const [old] = await listActiveSsoKeys(api.db, c.site.id);
    await api.ok(ROTATE, { input: { siteId: c.site.id, revokeOld: true } }, c.admin.token);
    const active = await listActiveSsoKeys(api.db, c.site.id);
    expect(active).toHaveLength(1);
    expect(active[0]!.id).not.toBe(old!.id);
  });

  it('lists sites to moderators without keys', async () => {
    const data = await api.ok(SITES, {}, c.moderator.token);
    expect(data.sites).toEqual([{ id: c.site.id, name: 'Example', ssoKeys: null }]);
  });
});
