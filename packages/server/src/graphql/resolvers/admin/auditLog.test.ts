import { listAuditLog, pruneAuditLog, recordAudit } from '../../../db/store/auditLog';
import { testDialects } from '../../../db/testDatabases';
import { startAccountDeletionJob } from '../../../jobs/startAccountDeletionJob';
import { createLogger } from '../../../runtime/createLogger';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const ENTRY = `id createdAt actor { username } actorName action targetType targetId targetLabel changes { field before after } ip`;
const LOG = `query ($action: AuditAction, $actorId: ID, $targetId: ID, $since: DateTime, $until: DateTime, $first: Int, $after: String) {
  auditLog(action: $action, actorId: $actorId, targetId: $targetId, since: $since, until: $until, first: $first, after: $after) {
    edges { node { ${ENTRY} } } pageInfo { hasNextPage endCursor }
  }
}`;
const SETTINGS = `mutation ($input: UpdateSettingsInput!) { updateSettings(input: $input) { settings { premod } } }`;

describe.each(testDialects())('the audit log on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  /** One run of the hourly sweep (account deletions, audit-log and session pruning). */
  async function sweep() {
    const job = startAccountDeletionJob({
      db: api.db,
      logger: createLogger({ level: 'silent' }),
      dataDir: '/nonexistent',
      publicUrl: 'http://127.0.0.1',
      intervalMs: 3_600_000,
    });
    await job.sweep();
    await job.stop();
  }

  /** The log as the admin reads it, newest first. */
  async function log(variables: Record<string, unknown> = {}) {
    const data = await api.ok(LOG, variables, c.admin.token);
    return data.auditLog.edges.map((edge: { node: unknown }) => edge.node) as {
      action: string;
      actorName: string;
      targetLabel: string;
      changes: { field: string; before: string | null; after: string | null }[];
      [key: string]: unknown;
    }[];
  }

  it('records a settings change before → after, the SMTP password only as redacted', async () => {
    await api.ok(
      SETTINGS,
      {
        input: {
          premod: 'ALL',
          smtpHost: 'smtp.example.com',
          smtpUser: 'mailer',
          smtpPassword: 'hunter2-very-secret',
        },
      },
      c.admin.token,
    );
    const [entry] = await log();
    expect(entry).toMatchObject({
      actor: { username: 'admin' },
      actorName: 'admin',
      action: 'SETTINGS_UPDATE',
      targetType: 'settings',
      targetId: null,
      targetLabel: 'Example News',
    });
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { field: 'premod', before: '"OFF"', after: '"ALL"' },
        { field: 'smtpHost', before: '""', after: '"smtp.example.com"' },
        { field: 'smtpPassword', before: null, after: '"[redacted]"' },
      ]),
    );
    // Nowhere in the stored log, not even sealed.
    const stored = await api.db.selectFrom('audit_log').select('changes').execute();
    expect(JSON.stringify(stored)).not.toContain('hunter2');
    expect(JSON.stringify(stored)).not.toContain('sealed:');
    // Saving the same values again changes nothing, and records nothing.
    await api.ok(SETTINGS, { input: { premod: 'ALL' } }, c.admin.token);
    expect(await log()).toHaveLength(1);
  });

  it('records nothing for a refused change, and nothing of it is stored', async () => {
    const refused = await api.request(
      SETTINGS,
      { input: { premod: 'ALL', reportThreshold: 0 } },
      c.admin.token,
    );
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('INVALID_INPUT');
    expect(await log()).toEqual([]);
  });

  it('records what moderators do to people, and the role an admin gives', async () => {
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await api.ok(
      `mutation ($id: ID!, $until: DateTime!) { suspendUser(input: { userId: $id, until: $until, message: "Cool off" }) { user { id } } }`,
      { id: c.target.user.id, until },
      c.moderator.token,
    );
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    await api.ok(
      `mutation ($id: ID!) { setUserRole(input: { userId: $id, role: STAFF }) { user { id } } }`,
      { id: c.commenter.user.id },
      c.admin.token,
    );
    const entries = await log();
    expect(entries.map((e) => [e.action, e.actorName, e.targetLabel])).toEqual([
      ['USER_ROLE', 'admin', c.commenter.user.username],
      ['USER_BAN', 'moderator', c.target.user.username],
      ['USER_SUSPEND', 'moderator', c.target.user.username],
    ]);
    expect(entries[0]!.changes).toEqual([
      { field: 'role', before: '"COMMENTER"', after: '"STAFF"' },
    ]);
    expect(entries[2]!.changes).toEqual([
      { field: 'suspendedUntil', before: null, after: JSON.stringify(until) },
      { field: 'message', before: null, after: '"Cool off"' },
    ]);
    // Banning the banned again changes nothing, and records nothing.
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    expect(await log()).toHaveLength(3);
    // Filters: by action, by actor, by the person acted on.
    expect((await log({ action: 'USER_BAN' })).map((e) => e.action)).toEqual(['USER_BAN']);
    expect(await log({ actorId: c.admin.user.id })).toHaveLength(1);
    expect(await log({ targetId: c.target.user.id })).toHaveLength(2);
  });

  it('records sites, their origins and SSO keys, without a key’s secret', async () => {
    const created = await api.ok(
      `mutation { createSite(input: { name: "Blog", url: "https://blog.example", allowedOrigins: [] }) { site { id ssoKeys { secret } } } }`,
      {},
      c.admin.token,
    );
    const siteId = created.createSite.site.id as string;
    const secret = created.createSite.site.ssoKeys[0].secret as string;
    await api.ok(
      `mutation ($id: ID!) { updateSite(input: { siteId: $id, allowedOrigins: ["https://www.blog.example"] }) { site { id } } }`,
      { id: siteId },
      c.admin.token,
    );
    const rotated = await api.ok(
      `mutation ($id: ID!) { rotateSsoKey(input: { siteId: $id, revokeOld: true }) { site { ssoKeys { secret } } } }`,
      { id: siteId },
      c.admin.token,
    );
    const entries = await log();
    expect(entries.map((e) => e.action)).toEqual(['SSO_KEY_ROTATE', 'SITE_UPDATE', 'SITE_CREATE']);
    expect(entries[1]!.changes).toEqual([
      {
        field: 'allowedOrigins',
        before: '["https://blog.example"]',
        after: '["https://www.blog.example","https://blog.example"]',
      },
    ]);
    const text = JSON.stringify(await api.db.selectFrom('audit_log').selectAll().execute());
    expect(text).not.toContain(secret);
    for (const key of rotated.rotateSsoKey.site.ssoKeys as { secret: string | null }[]) {
      if (key.secret !== null) expect(text).not.toContain(key.secret);
    }
    expect(entries[0]!.changes).toContainEqual({
      field: 'ssoKey',
      before: '"[redacted]"',
      after: '"[redacted]"',
    });
  });

  it('records a story’s settings', async () => {
    await api.ok(
      `mutation ($id: ID!) { updateStory(input: { storyId: $id, status: CLOSED, premod: ALL }) { story { id } } }`,
      { id: c.story.id },
      c.moderator.token,
    );
    const [entry] = await log();
    expect(entry).toMatchObject({ action: 'STORY_UPDATE', targetLabel: c.story.url });
    expect(entry!.changes).toEqual([
      { field: 'status', before: '"OPEN"', after: '"CLOSED"' },
      { field: 'premod', before: null, after: '"ALL"' },
    ]);
  });

  it('is for admins only, pages by cursor and filters by time', async () => {
    const denied = await api.request(LOG, {}, c.moderator.token);
    expect(denied.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    for (const [i, day] of ['01', '02', '03'].entries()) {
      await recordAudit(
        api.db,
        {
          actor: null,
          action: 'PASSWORD_RESET',
          target: { type: 'user', id: c.target.user.id, label: `reset ${i}` },
        },
        new Date(`2026-03-${day}T12:00:00.000Z`),
      );
    }
    const first = await api.ok(LOG, { first: 2 }, c.admin.token);
    expect(first.auditLog.edges.map((e: any) => e.node.targetLabel)).toEqual([
      'reset 2',
      'reset 1',
    ]);
    expect(first.auditLog.pageInfo.hasNextPage).toBe(true);
    const rest = await api.ok(
      LOG,
      { first: 2, after: first.auditLog.pageInfo.endCursor },
      c.admin.token,
    );
    expect(rest.auditLog.edges.map((e: any) => e.node)).toEqual([
      expect.objectContaining({
        targetLabel: 'reset 0',
        actor: null,
        actorName: 'parley',
        ip: null,
      }),
    ]);
    const between = await log({
      since: '2026-03-02T00:00:00.000Z',
      until: '2026-03-03T00:00:00.000Z',
    });
    expect(between.map((e) => e.targetLabel)).toEqual(['reset 1']);
  });

  it('keeps entries for the retention the organization set; the sweep prunes older ones', async () => {
    const now = new Date();
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const write = (label: string, at: Date) =>
      recordAudit(
        api.db,
        { actor: null, action: 'PASSWORD_RESET', target: { type: 'user', id: null, label } },
        at,
      );
    await write('last week', days(7));
    await write('two months ago', days(60));
    await write('two years ago', days(730));
    // Default retention: a year.
    expect(await pruneAuditLog(api.db, 365, now)).toBe(1);
    await api.ok(SETTINGS, { input: { auditRetentionDays: 30 } }, c.admin.token);
    await sweep();
    const left = await listAuditLog(api.db, {}, {});
    // The settings change itself (now) and last week's stay.
    expect(left.edges.map((e) => e.node.targetLabel)).toEqual(['Example News', 'last week']);
    const range = await api.request(SETTINGS, { input: { auditRetentionDays: 7 } }, c.admin.token);
    expect(range.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'auditRetentionDays',
    });
  });

  it('records an account the deletion job erased, by the system, under its new name', async () => {
    // What was recorded about the account before, and what it did itself, loses its name too.
    await api.ok(
      `mutation ($id: ID!) { banUser(input: { userId: $id }) { user { id } } }`,
      { id: c.target.user.id },
      c.moderator.token,
    );
    await recordAudit(
      api.db,
      {
        actor: { id: c.target.user.id, username: c.target.user.username },
        action: 'TWO_FACTOR_ENABLE',
        target: { type: 'user', id: c.target.user.id, label: c.target.user.username },
      },
      new Date(),
    );
    await api.db
      .updateTable('users')
      .set({ deletion_requested_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', c.target.user.id)
      .execute();
    await sweep();
    const [entry] = await log({ action: 'USER_ERASE' });
    expect(entry).toMatchObject({
      actor: null,
      actorName: 'system',
      targetId: c.target.user.id,
    });
    expect(entry!.targetLabel).not.toBe(c.target.user.username);
    const stored = await api.db.selectFrom('audit_log').selectAll().execute();
    const names = stored.flatMap((row) => [row.target_label, row.actor_name]);
    expect(names).not.toContain(c.target.user.username);
    expect(await log({ targetId: c.target.user.id })).toHaveLength(3);
  });
});
