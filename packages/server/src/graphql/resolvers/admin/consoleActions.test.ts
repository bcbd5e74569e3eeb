import { testBox } from '../../../db/testFixtures';
import { addSsoKey, createSite, listActiveSsoKeys } from '../../../db/store/sites';
import { hashPassword } from '../../../auth/passwords';
import { findUserByEmail, updateUser } from '../../../db/store/users';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { signHostToken } from '../../testing/signHostToken';
import { PASSWORD, useApi } from '../../testing/useApi';

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
const ACCEPT = `mutation ($input: ResetPasswordInput!) {
  acceptModeratorInvite(input: $input) { token user { username role } }
}`;
const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { token } }`;

describe.each(testDialects())('console admin actions on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;
  beforeEach(async () => {
    c = await seedCommunity(api);
  });

  it('has defaults for the stream settings and stores them', async () => {
    const before = await api.ok(`{ settings { reactionLabel featuredTab customCssUrl } }`);
    expect(before.settings).toEqual({
      reactionLabel: '',
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
    // Empty (blank) goes back to the stream's own words, in the reader's language.
    const cleared = await api.ok(UPDATE, { input: { reactionLabel: '  ' } }, c.admin.token);
    expect(cleared.updateSettings.settings.reactionLabel).toBe('');
  });

  it.each([
    ['customCssUrl', 'http://cdn.example/s.css'],
    ['customCssUrl', 'not a url'],
    ['reactionLabel', 'x'.repeat(31)],
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

  /** The invitation link's token from the last email. */
  function invitationToken(): string {
    const text = api.mail.at(-1)?.text ?? '';
    const token = /\/account\/accept-invite#token=([\w-]+)/.exec(text)?.[1];
    if (token === undefined) throw new Error(`No invitation link in: ${text}`);
    return token;
  }
  const roleOf = async (email: string) => (await findUserByEmail(api.db, email))?.role;

  it('invites a new address: the account is made, and moderates once the link is opened', async () => {
    const data = await api.ok(INVITE, { input: { email: 'New.Mod@Example.com' } }, c.admin.token);
    expect(data.inviteModerator.user).toMatchObject({ username: 'New.Mod', role: 'COMMENTER' });
    expect(await roleOf('new.mod@example.com')).toBe('COMMENTER');

    const accepted = await api.ok(ACCEPT, {
      input: { token: invitationToken(), password: 'moderating now' },
    });
    expect(accepted.acceptModeratorInvite.user).toMatchObject({
      username: 'New.Mod',
      role: 'MODERATOR',
    });
    expect(await roleOf('new.mod@example.com')).toBe('MODERATOR');
    // The audit log has the invitation and its acceptance, both the admin's word.
    const audited = await api.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'target_label', 'changes'])
      .orderBy('created_at')
      .execute();
    expect(audited.map((row) => [row.action, row.actor_name, row.target_label])).toEqual([
      ['USER_INVITE', 'admin', 'New.Mod'],
      ['USER_ROLE', 'admin', 'New.Mod'],
    ]);
    expect(JSON.parse(audited[1]!.changes)).toContainEqual({
      field: 'role',
      before: 'COMMENTER',
      after: 'MODERATOR',
    });
    // The password chosen on the page is the account's.
    await api.ok(SIGN_IN, { input: { email: 'new.mod@example.com', password: 'moderating now' } });
    // Single use.
    const again = await api.request(ACCEPT, {
      input: { token: invitationToken(), password: 'moderating now' },
    });
    expect(again.errors?.[0]?.extensions?.code).toBe('TOKEN_INVALID');
    const denied = await api.request(
      INVITE,
      { input: { email: 'x@example.com' } },
      c.moderator.token,
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('promotes an existing commenter only when the mailbox owner opens the link, ending the other sessions', async () => {
    // Unconfirmed: whoever signed up with the address first knows this account's password.
    const squatter = c.commenter;
    await updateUser(api.db, squatter.user.id, { passwordHash: await hashPassword(PASSWORD) });
    const squatterSession = await api.ok(SIGN_IN, {
      input: { email: squatter.user.email, password: PASSWORD },
    });
    await api.ok(INVITE, { input: { email: squatter.user.email } }, c.admin.token);
    expect(await roleOf(squatter.user.email)).toBe('COMMENTER');

    await api.ok(ACCEPT, { input: { token: invitationToken(), password: 'the owner chose' } });
    expect(await roleOf(squatter.user.email)).toBe('MODERATOR');
    const stale = await api.request(`{ viewer { id } }`, {}, squatterSession.signIn.token);
    expect(stale.errors?.[0]?.extensions?.code).toBe('TOKEN_INVALID');
    const wrong = await api.request(SIGN_IN, {
      input: { email: squatter.user.email, password: PASSWORD },
    });
    expect(wrong.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
  });

  it('never gives a role to an account a second site’s SSO key claimed the invited address for (the audit’s takeover)', async () => {
    // The audit: the owner of another site permitted on this install signs, with that site's
    // key, an SSO token for the address the admin is about to invite.
    const { site: other } = await createSite(
      api.db,
      {
        name: 'Other',
        url: 'https://other.example',
        allowedOrigins: ['https://other.example'],
      },
      testBox,
    );
    const key = await addSsoKey(api.db, other.id, testBox);
    const forged = await signHostToken(key.secret, {
      id: 'x-1',
      email: 'invited@example.com',
      username: 'invited',
    });
    const claimed = await api.ok(
      `mutation ($input: SsoSignInInput!) { signInWithSso(input: $input) { token } }`,
      { input: { token: forged } },
    );

    const invite = await api.request(
      INVITE,
      { input: { email: 'invited@example.com' } },
      c.admin.token,
    );
    expect(invite.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
    expect(api.mail).toEqual([]);
    expect(await roleOf('invited@example.com')).toBe('COMMENTER');
    const viewer = await api.ok(`{ viewer { role } }`, {}, claimed.signInWithSso.token);
    expect(viewer.viewer.role).toBe('COMMENTER');
  });

  it('voids an invitation whose admin lost the role before it was opened', async () => {
    await api.ok(INVITE, { input: { email: 'late@example.com' } }, c.admin.token);
    const token = invitationToken();
    await api.db
      .updateTable('users')
      .set({ role: 'MODERATOR' })
      .where('id', '=', c.admin.user.id)
      .execute();
    const answer = await api.request(ACCEPT, { input: { token, password: 'too late now' } });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'TOKEN_INVALID', field: 'token' });
    expect(await roleOf('late@example.com')).toBe('COMMENTER');
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
