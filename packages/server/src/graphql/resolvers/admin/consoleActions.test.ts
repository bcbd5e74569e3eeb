import { listActiveSsoKeys } from '../../../db/store/sites';
import { findUserByEmail } from '../../../db/store/users';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';

const UPDATE = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { settings { reactionLabel featuredTab customCssUrl } }
}`;
const REVOKE = `mutation ($input: RevokeSsoKeyInput!) {
  revokeSsoKey(input: $input) { site { id ssoKeys { id } } }
}`;
const INVITE = `mutation ($input: InviteModeratorInput!) {
  inviteModerator(input: $input) { user { username email role } }
}`;
const TEST_EMAIL = `mutation { sendTestEmail { ok } }`;

describe.each(testDialects())('console admin actions on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('has defaults for the stream settings and stores them', async () => {
    const before = await api.ok(`{ settings { reactionLabel featuredTab customCssUrl } }`);
    expect(before.settings).toEqual({
      reactionLabel: 'Respect',
      featuredTab: true,
      customCssUrl: '',
    });
    const data = await api.ok(
      UPDATE,
      {
        input: {
          reactionLabel: ' Like ',
          featuredTab: false,
          customCssUrl: 'https://cdn.example/s.css',
        },
      },
      c.admin.token,
    );
    expect(data.updateSettings.settings).toEqual({
      reactionLabel: 'Like',
      featuredTab: false,
      customCssUrl: 'https://cdn.example/s.css',
    });
  });

  it.each([
    ['customCssUrl', 'http://cdn.example/s.css'],
    ['customCssUrl', 'not a url'],
    ['reactionLabel', ' '],
  ])('refuses %s = %p with INVALID_INPUT on that field', async (field, value) => {
    const answer = await api.request(UPDATE, { input: { [field]: value } }, c.admin.token);
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
  });

  it('revokes one key of the site, and refuses a key of no such site', async () => {
    const [key] = await listActiveSsoKeys(api.db, c.site.id);
    const wrong = await api.request(
      REVOKE,
      { input: { siteId: c.site.id, keyId: 'nope' } },
      c.admin.token,
    );
    expect(wrong.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const denied = await api.request(
      REVOKE,
      { input: { siteId: c.site.id, keyId: key!.id } },
      c.moderator.token,
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const data = await api.ok(
      REVOKE,
      { input: { siteId: c.site.id, keyId: key!.id } },
      c.admin.token,
    );
    expect(data.revokeSsoKey.site.ssoKeys).toEqual([]);
    expect(await listActiveSsoKeys(api.db, c.site.id)).toEqual([]);
  });

  it('sends a test email to the admin', async () => {
    await api.ok(TEST_EMAIL, {}, c.admin.token);
    expect(api.mail.map((m) => m.to)).toEqual(['admin@example.com']);
    const denied = await api.request(TEST_EMAIL, {}, c.moderator.token);
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('invites a new moderator with a set-password link, and promotes an existing commenter', async () => {
    const data = await api.ok(INVITE, { input: { email: 'New.Mod@Example.com' } }, c.admin.token);
    expect(data.inviteModerator.user).toMatchObject({ username: 'New.Mod', role: 'MODERATOR' });
    expect(api.mail.at(-1)?.text).toContain('/account/reset-password#token=');
    const stored = await findUserByEmail(api.db, 'new.mod@example.com');
    expect(stored?.passwordHash).toEqual(expect.any(String));

    // An unconfirmed address could be anyone's sign-up: refused until its owner confirms it.
    const unconfirmed = await api.request(
      INVITE,
      { input: { email: c.commenter.user.email } },
      c.admin.token,
    );
    expect(unconfirmed.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'email',
    });
    await api.db
      .updateTable('users')
      .set({ email_verified: 1 })
      .where('id', '=', c.commenter.user.id)
      .execute();
    const promoted = await api.ok(
      INVITE,
      { input: { email: c.commenter.user.email } },
      c.admin.token,
    );
    expect(promoted.inviteModerator.user.role).toBe('MODERATOR');
    const denied = await api.request(
      INVITE,
      { input: { email: 'x@example.com' } },
      c.moderator.token,
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('answers per-story queue counts to moderators only', async () => {
    await c.comment({ status: 'PREMOD' });
    const query = `query ($id: ID!) { story(id: $id) { moderationCounts { pending } } }`;
    const mod = await api.ok(query, { id: c.story.id }, c.moderator.token);
    expect(mod.story.moderationCounts.pending).toBe(1);
    const reader = await api.ok(query, { id: c.story.id }, c.commenter.token);
    expect(reader.story.moderationCounts).toBeNull();
  });
});
