import { seedBasics, testBox } from '../testFixtures';
import { TOKEN_PURPOSES } from '../schema';
import { testDialects, useTestDatabase } from '../testDatabases';
import {
  addSsoKey,
  findSiteByOrigin,
  listActiveSsoKeys,
  revokeSsoKey,
  rotateSsoKey,
  updateSite,
} from './sites';
import {
  consumeToken,
  createToken,
  getIdempotencyKey,
  pruneIdempotencyKeys,
  putIdempotencyKey,
} from './tokens';

describe.each(testDialects())('tokens, idempotency keys and sites on %s', (dialect) => {
  const t = useTestDatabase(dialect);

  it('consumes a token exactly once, even when two uses race', async () => {
    const { users } = await seedBasics(t.db, { userCount: 1 });
    const userId = users[0]!.id;
    const { token } = await createToken(t.db, {
      purpose: 'RESET_PASSWORD',
      userId,
      ttlSeconds: 60,
    });
    expect(await consumeToken(t.db, 'CONFIRM_EMAIL', token)).toEqual({
      ok: false,
      code: 'TOKEN_INVALID',
    });
    const results = await Promise.all(
      [1, 2, 3].map(() => consumeToken(t.db, 'RESET_PASSWORD', token)),
    );
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, userId, createdBy: null }]);
    expect(await consumeToken(t.db, 'RESET_PASSWORD', token)).toEqual({
      ok: false,
      code: 'TOKEN_INVALID',
    });
    expect(await consumeToken(t.db, 'RESET_PASSWORD', 'forged')).toEqual({
      ok: false,
      code: 'TOKEN_INVALID',
    });
  });

  it.each(TOKEN_PURPOSES)(
    'keeps a %s token only as its hash, usable once, until it expires',
    async (purpose) => {
      const { users } = await seedBasics(t.db, { userCount: 1 });
      const userId = users[0]!.id;
      const made = await createToken(t.db, { purpose, userId, ttlSeconds: 60 });
      const expired = await createToken(t.db, { purpose, userId, ttlSeconds: 60 });
      // The emailed value is nowhere in storage: a copy of the database opens no link.
      const rows = await t.db.selectFrom('tokens').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(made.token);
      expect(JSON.stringify(rows)).not.toContain(expired.token);
      const later = new Date(Date.now() + 120_000).toISOString();
      expect(await consumeToken(t.db, purpose, expired.token, later)).toEqual({
        ok: false,
        code: 'TOKEN_EXPIRED',
      });
      expect(await consumeToken(t.db, purpose, made.token)).toMatchObject({ ok: true, userId });
      expect(await consumeToken(t.db, purpose, made.token)).toEqual({
        ok: false,
        code: 'TOKEN_INVALID',
      });
    },
  );

  it('tells an expired token from an invalid one', async () => {
    const { users } = await seedBasics(t.db, { userCount: 1 });
    const { token } = await createToken(t.db, {
      purpose: 'CONFIRM_EMAIL',
      userId: users[0]!.id,
      ttlSeconds: 60,
    });
    const later = new Date(Date.now() + 120_000).toISOString();
    expect(await consumeToken(t.db, 'CONFIRM_EMAIL', token, later)).toEqual({
      ok: false,
      code: 'TOKEN_EXPIRED',
    });
  });

  it('remembers the first response per idempotency key and scope', async () => {
    const put = (response: unknown, scope = 'user:1') =>
      putIdempotencyKey(t.db, { scope, key: 'k', operation: 'createComment', response });
    expect((await put({ id: 'first' })).response).toEqual({ id: 'first' });
    expect((await put({ id: 'second' })).response).toEqual({ id: 'first' });
    expect((await put({ id: 'other' }, 'ip:127.0.0.1')).response).toEqual({ id: 'other' });
    expect(await getIdempotencyKey(t.db, 'user:2', 'k')).toBeUndefined();
    expect(await pruneIdempotencyKeys(t.db, new Date(Date.now() + 1000).toISOString())).toBe(2);
  });

  it('finds the site permitting an origin, exactly', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    expect((await findSiteByOrigin(t.db, 'https://NEWS.example'))?.id).toBe(site.id);
    expect(await findSiteByOrigin(t.db, 'https://news.example.evil')).toBeUndefined();
    expect(await findSiteByOrigin(t.db, 'http://news.example')).toBeUndefined();
    expect(await findSiteByOrigin(t.db, 'garbage')).toBeUndefined();
    await updateSite(t.db, site.id, { allowedOrigins: ['https://a.example:8443/'] });
    expect((await findSiteByOrigin(t.db, 'https://a.example:8443'))?.id).toBe(site.id);
    expect(await findSiteByOrigin(t.db, 'https://news.example')).toBeUndefined();
  });

  it('rotates SSO keys with an overlap and revokes them at once', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    const [original] = await listActiveSsoKeys(t.db, site.id);
    const rotated = await rotateSsoKey(t.db, site.id, testBox, 60);
    const active = await listActiveSsoKeys(t.db, site.id);
    expect(active.map((k) => k.id).sort()).toEqual([original!.id, rotated.id].sort());
    expect(active.find((k) => k.id === original!.id)?.expiresAt).not.toBeNull();
    const afterOverlap = new Date(Date.now() + 120_000).toISOString();
    expect((await listActiveSsoKeys(t.db, site.id, afterOverlap)).map((k) => k.id)).toEqual([
      rotated.id,
    ]);
    const spare = await addSsoKey(t.db, site.id, testBox);
    await revokeSsoKey(t.db, spare.id);
    expect((await listActiveSsoKeys(t.db, site.id)).map((k) => k.id)).not.toContain(spare.id);
  });
});
