import { testDialects } from '../../db/testDatabases';
import { SITE_ORIGIN, useApi } from '../testing/useApi';
import type { Api } from '../testing/useApi';
import { codeOf, tokenFromMail } from './account/accountTestKit';
import {
  claimGuestComments,
  countClaimableComments,
  createGuest,
  forgetOldGuestAddresses,
} from '../../db/store/guests';
import { createComment } from '../../db/store/comments';
import { upsertSsoUser } from '../../db/store/users';

const SETTINGS = `mutation ($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { settings { guestComments guestPremod } }
}`;
const START = `mutation ($input: StartGuestSessionInput!) {
  startGuestSession(input: $input) { token user { id username isGuest email emailVerified } }
}`;
const POST = `mutation ($input: CreateCommentInput!) {
  createComment(input: $input) { comment { id status heldBecause author { id username isGuest } } }
}`;
const EDIT = `mutation ($input: EditCommentInput!) { editComment(input: $input) { comment { id body status } } }`;
const DELETE = `mutation ($input: CommentIdInput!) { deleteComment(input: $input) { comment { id deletedAt } } }`;
const APPROVE = `mutation ($id: ID!) { approveComment(input: { commentId: $id }) { comment { id status } } }`;
const CONFIRM = `mutation ($input: TokenInput!) { confirmEmail(input: $input) { user { id emailVerified } } }`;
const VIEWER = `{ viewer { id username isGuest claimableGuestComments } }`;
const CLAIM = `mutation { claimGuestComments { claimed user { id } } }`;
const BAN = `mutation ($input: BanIpRangeInput!) {
  banIpRange(input: $input) { ipBan { id range reason expiresAt active liftedAt createdBy { username } } }
}`;
const LIFT = `mutation ($id: ID!) { liftIpBan(input: { id: $id }) { ipBan { id active liftedAt } } }`;
const BANS = `{ ipBans { edges { node { id range active } } } }`;

const GUEST_IP = '203.0.113.7';

async function setup(api: Api, settings: Record<string, unknown> = { guestComments: true }) {
  const admin = await api.install();
  await api.ok(SETTINGS, { input: settings }, admin.adminToken);
  const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
    url: `${SITE_ORIGIN}/guests`,
  });
  const storyId = story.id as string;
  const start = (name: string, email?: string, ip = GUEST_IP) =>
    api.request(START, { input: { name, email } }, null, ip);
  const guest = async (name: string, email?: string, ip = GUEST_IP) => {
    const answer = await start(name, email, ip);
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data!.startGuestSession as {
      token: string;
      user: { id: string; username: string };
    };
  };
  const post = (token: string, body: string, parentId?: string, ip = GUEST_IP) =>
    api.request(POST, { input: { storyId, body, parentId } }, token, ip);
  return { ...admin, storyId, start, guest, post };
}

/** Mail goes out in the background; wait until `count` messages arrived (or give up after 2 s). */
async function mailArrives(api: Api, count: number) {
  const until = Date.now() + 2000;
  while (api.mail.length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return api.mail;
}

describe.each(testDialects())('guest comments on %s', (dialect) => {
  const api = useApi(dialect);

  it('are off by default, pre-moderated by default once on', async () => {
    const { adminToken, start } = await setup(api, {});
    const { settings } = await api.ok(`{ settings { guestComments guestPremod } }`);
    expect(settings).toEqual({ guestComments: false, guestPremod: true });
    expect(codeOf(await start('Sam'))).toBe('GUEST_COMMENTS_OFF');
    expect(await api.db.selectFrom('users').select('id').where('guest', '=', 1).execute()).toEqual(
      [],
    );
    await api.ok(SETTINGS, { input: { guestComments: true } }, adminToken);
    expect(codeOf(await start('Sam'))).toBeUndefined();
  });

  it('lets a guest post with a name: held with the reason GUEST, shown as a guest', async () => {
    const { adminToken, guest, post } = await setup(api);
    const sam = await guest('  Sam   Smith ');
    expect(sam.user).toMatchObject({ username: 'Sam Smith', isGuest: true });
    expect((await api.ok(VIEWER, {}, sam.token)).viewer).toMatchObject({
      username: 'Sam Smith',
      isGuest: true,
      claimableGuestComments: 0,
    });
    const answer = await post(sam.token, 'Hello from a guest');
    expect(answer.data?.createComment.comment.status).toBe('PREMOD');
    // Why, and by whom, as moderators see it in the queue.
    const HELD = `query ($id: ID!) { comment(id: $id) { heldBecause author { username isGuest } } }`;
    const held = await api.ok(HELD, { id: answer.data?.createComment.comment.id }, adminToken);
    expect(held.comment).toEqual({
      heldBecause: ['GUEST'],
      author: { username: 'Sam Smith', isGuest: true },
    });
    // Without pre-moderation, published at once.
    await api.ok(SETTINGS, { input: { guestPremod: false } }, adminToken);
    expect((await post(sam.token, 'Again')).data?.createComment.comment.status).toBe('NONE');
    // Where they posted from is kept for admins (to ban its range), nobody else.
    const [row] = await api.db
      .selectFrom('users')
      .select(['ip_address', 'username_key', 'username_skeleton', 'email_key'])
      .where('id', '=', sam.user.id)
      .execute();
    expect(row).toEqual({
      ip_address: GUEST_IP,
      username_key: `guest:${sam.user.id}`,
      username_skeleton: null,
      email_key: `guest:${sam.user.id}`,
    });
    const USER = `query ($id: ID!) { user(id: $id) { ipAddress suggestedBanRange } }`;
    expect((await api.ok(USER, { id: sam.user.id }, adminToken)).user).toEqual({
      ipAddress: GUEST_IP,
      suggestedBanRange: '203.0.113.0/24',
    });
    const moderator = await api.signUp('moderator');
    await api.ok(
      `mutation ($id: ID!) { setUserRole(input: { userId: $id, role: MODERATOR }) { user { id } } }`,
      { id: moderator.userId },
      adminToken,
    );
    expect((await api.ok(USER, { id: sam.user.id }, moderator.token)).user.ipAddress).toBeNull();
  });

  it("refuses a name that is, or looks like, a member's, and names that are not names", async () => {
    const { start: startFrom, guest } = await setup(api);
    // Each try from its own address: ten a network an hour (tried below).
    let tries = 0;
    const start = (name: string) => startFrom(name, undefined, `192.0.2.${(tries += 1)}`);
    await api.signUp('ann_lee');
    for (const name of [
      'admin',
      'ADMIN',
      '\u0430dmin',
      'Ad Min',
      'adrnin',
      'Ann_Lee',
      'ann-lee',
      'Ann Lee',
      'Admin.',
      '\uff41\uff44\uff4d\uff49\uff4e',
      'admin\ufe0f',
      'ad\u034fmin',
      'Moderator',
      'Admi\u0307n',
      'Site Admin',
      'Moderators',
    ]) {
      const answer = await start(name);
      expect([name, codeOf(answer), answer.errors?.[0]?.extensions?.field]).toEqual([
        name,
        'GUEST_NAME_TAKEN',
        'name',
      ]);
    }
    for (const name of ['S', '<b>Sam</b>', 'x'.repeat(31), 'Sam\u202E']) {
      const answer = await start(name);
      if (name === 'Sam\u202E') {
        // The control goes; what is left is a fine name.
        expect([answer.errors, answer.data?.startGuestSession.user.username]).toEqual([
          undefined,
          'Sam',
        ]);
      } else {
        expect([name, codeOf(answer)]).toEqual([name, 'INVALID_INPUT']);
      }
    }
    // Names that only begin like the site's people's are names.
    await guest('Stafford');
    // Guests reserve nothing: two may share a name, and a member may take it afterwards.
    await guest('Sam Smith');
    await guest('sam smith');
    await api.signUp('Sam');
    await guest('Bea', 'bea@example.com');
    // …or the address a guest gave.
    await api.signUp('bea');
  });

  it('lets a guest edit and delete their comments, and nothing else', async () => {
    const { adminToken, guest, post, storyId } = await setup(api, {
      guestComments: true,
      guestPremod: false,
    });
    const sam = await guest('Sam');
    const reader = await api.signUp('reader');
    const mine = (await post(sam.token, 'first')).data!.createComment.comment.id as string;
    const theirs = (await api.ok(POST, { input: { storyId, body: 'a member' } }, reader.token))
      .createComment.comment.id as string;
    expect(
      (await api.ok(EDIT, { input: { commentId: mine, body: 'edited' } }, sam.token, GUEST_IP))
        .editComment.comment.body,
    ).toBe('<p>edited</p>');
    // A guest's edit, like their post, needs an address to check against the bans.
    const unknown = await api.request(EDIT, { input: { commentId: mine, body: 'x' } }, sam.token);
    expect(codeOf(unknown)).toBe('IP_BANNED');
    for (const [query, variables] of [
      [
        `mutation ($id: ID!) { createReaction(input: { commentId: $id }) { comment { id } } }`,
        { id: theirs },
      ],
      [
        `mutation ($id: ID!) { reportComment(input: { commentId: $id, reason: SPAM }) { comment { id } } }`,
        { id: theirs },
      ],
      [`mutation { updateUsername(input: { username: "admin2" }) { user { id } } }`, {}],
      [`mutation { makeRepliesFeed { user { id } } }`, {}],
      [`mutation { requestAccountDeletion { user { id } } }`, {}],
      [
        `mutation ($id: ID!) { ignoreUser(input: { userId: $id }) { user { id } } }`,
        { id: reader.userId },
      ],
    ] as const) {
      expect([query, codeOf(await api.request(query, variables, sam.token))]).toEqual([
        query,
        'GUEST_NOT_ALLOWED',
      ]);
    }
    expect(
      (await api.ok(DELETE, { input: { commentId: mine } }, sam.token)).deleteComment.comment
        .deletedAt,
    ).not.toBeNull();
    // A moderator cannot make a guest staff.
    const role = await api.request(
      `mutation ($id: ID!) { setUserRole(input: { userId: $id, role: STAFF }) { user { id } } }`,
      { id: sam.user.id },
      adminToken,
    );
    expect(codeOf(role)).toBe('INVALID_INPUT');
    // Signing in as a member is always open: the guest's session gives way.
    const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { user { username isGuest } } }`;
    const signedIn = await api.ok(
      SIGN_IN,
      { input: { email: 'reader@example.com', password: 'correct horse battery' } },
      sam.token,
    );
    expect(signedIn.signIn.user).toEqual({ username: 'reader', isGuest: false });
  });

  it("sends a guest's approved comment back for review when they edit it", async () => {
    const { adminToken, guest, post } = await setup(api);
    const sam = await guest('Sam');
    const id = (await post(sam.token, 'first')).data!.createComment.comment.id as string;
    await api.ok(APPROVE, { id }, adminToken);
    const edited = await api.ok(
      EDIT,
      { input: { commentId: id, body: 'changed' } },
      sam.token,
      GUEST_IP,
    );
    expect(edited.editComment.comment.status).toBe('PREMOD');
  });

  it('limits guest sessions and guest posts per address', async () => {
    const { start, guest, post } = await setup(api, { guestComments: true, guestPremod: false });
    for (let i = 0; i < 10; i += 1) await guest(`Guest ${String.fromCharCode(97 + i)}`);
    expect(codeOf(await start('One more'))).toBe('RATE_LIMITED');
    expect(codeOf(await start('Elsewhere', undefined, '198.51.100.1'))).toBeUndefined();
    // Posts: 10 per 10 minutes from one address, whichever guest writes (each under 10 a minute).
    const a = await guest('Writer A', undefined, '192.0.2.1');
    const b = await guest('Writer B', undefined, '192.0.2.1');
    for (let i = 0; i < 5; i += 1) {
      expect(codeOf(await post(a.token, `a${i}`, undefined, '192.0.2.1'))).toBeUndefined();
      expect(codeOf(await post(b.token, `b${i}`, undefined, '192.0.2.1'))).toBeUndefined();
    }
    expect(codeOf(await post(a.token, 'over', undefined, '192.0.2.1'))).toBe('RATE_LIMITED');
  });

  it('emails replies to a guest only once they confirmed their address', async () => {
    const { adminToken, guest, post, storyId } = await setup(api, {
      guestComments: true,
      guestPremod: false,
    });
    const reader = await api.signUp('reader');
    const sam = await guest('Sam', 'sam@example.com');
    const [confirmation] = await mailArrives(api, 1);
    expect(confirmation?.to).toBe('sam@example.com');
    const parentId = (await post(sam.token, 'Hello')).data!.createComment.comment.id as string;
    const reply = () =>
      api.ok(POST, { input: { storyId, parentId, body: 'Welcome!' } }, reader.token);
    api.mail.length = 0;
    await reply();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.mail).toEqual([]);
    // The link in the first email confirms the address.
    api.mail.push(confirmation!);
    await api.ok(CONFIRM, { input: { token: tokenFromMail(api, '/account/confirm-email') } });
    expect((await api.ok(`{ viewer { emailVerified } }`, {}, sam.token)).viewer.emailVerified).toBe(
      true,
    );
    api.mail.length = 0;
    await reply();
    const [message] = await mailArrives(api, 1);
    expect(message).toMatchObject({
      to: 'sam@example.com',
      subject: 'reader replied to your comment',
    });
    // A guest without an address has nothing to confirm.
    const bea = await guest('Bea');
    const resend = await api.request(
      `mutation { sendEmailConfirmation { user { id } } }`,
      {},
      bea.token,
    );
    expect(codeOf(resend)).toBe('INVALID_INPUT');
    void adminToken;
  });

  it('lets a member claim the comments of guests who confirmed the same address', async () => {
    const { adminToken, guest, post } = await setup(api);
    const sam = await guest('Sam', 'sam@example.com');
    await api.ok(CONFIRM, { input: { token: tokenFromMail(api, '/account/confirm-email') } });
    const first = (await post(sam.token, 'one')).data!.createComment.comment.id as string;
    await api.ok(APPROVE, { id: first }, adminToken);
    await post(sam.token, 'two');
    // A guest who never confirmed the address gives nothing to claim.
    const unconfirmed = await guest('Sam again', 'sam@example.com');
    await post(unconfirmed.token, 'three');

    const member = await api.signUp('sam');
    expect((await api.ok(VIEWER, {}, member.token)).viewer.claimableGuestComments).toBe(2);
    // Nobody else's address: another member claims nothing.
    const other = await api.signUp('other');
    expect((await api.ok(CLAIM, {}, other.token)).claimGuestComments.claimed).toBe(0);

    expect((await api.ok(CLAIM, {}, member.token)).claimGuestComments.claimed).toBe(2);
    const authors = await api.db
      .selectFrom('comments')
      .select(['body_source', 'author_id'])
      .orderBy('body_source')
      .execute();
    expect(authors).toEqual([
      { body_source: 'one', author_id: member.userId },
      { body_source: 'three', author_id: unconfirmed.user.id },
      { body_source: 'two', author_id: member.userId },
    ]);
    // Claimed once: the guest's session is over and there is nothing left to claim.
    expect(codeOf(await post(sam.token, 'four'))).toMatch(/TOKEN_INVALID|UNAUTHENTICATED/);
    expect((await api.ok(VIEWER, {}, member.token)).viewer.claimableGuestComments).toBe(0);
    expect((await api.ok(CLAIM, {}, member.token)).claimGuestComments.claimed).toBe(0);
    // The guest's row keeps neither the address nor where they wrote from.
    const [emptied] = await api.db
      .selectFrom('users')
      .select(['email', 'email_verified', 'guest_email_key', 'ip_address'])
      .where('id', '=', sam.user.id)
      .execute();
    expect(emptied).toEqual({
      email: `guest-${sam.user.id}@guest.invalid`,
      email_verified: 0,
      guest_email_key: null,
      ip_address: null,
    });
    // The thread shows the member's name on the claimed comment.
    const USER = `query ($id: ID!) { comment(id: $id) { author { username isGuest } } }`;
    expect((await api.ok(USER, { id: first })).comment.author).toEqual({
      username: 'sam',
      isGuest: false,
    });
  });

  it('lets an admin erase a guest at once, who has no profile to ask from', async () => {
    const { adminToken, guest, post } = await setup(api, {
      guestComments: true,
      guestPremod: false,
    });
    const sam = await guest('Sam', 'sam@example.com');
    const id = (await post(sam.token, 'Forget me')).data!.createComment.comment.id as string;
    const reader = await api.signUp('reader');
    const ERASE = `mutation ($id: ID!) { eraseGuest(input: { userId: $id }) { user { id username } } }`;
    expect(codeOf(await api.request(ERASE, { id: reader.userId }, adminToken))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(await api.request(ERASE, { id: sam.user.id }, reader.token))).toBe('FORBIDDEN');
    const erased = await api.ok(ERASE, { id: sam.user.id }, adminToken);
    expect(erased.eraseGuest.user.username).toMatch(/^deleted-/);
    const [row] = await api.db
      .selectFrom('users')
      .select(['email', 'guest_email_key', 'ip_address', 'deleted_at'])
      .where('id', '=', sam.user.id)
      .execute();
    expect(row).toMatchObject({ guest_email_key: null, ip_address: null });
    expect(row!.email).toMatch(/@deleted\.invalid$/);
    expect(row!.deleted_at).not.toBeNull();
    const [comment] = await api.db
      .selectFrom('comments')
      .select(['body_source', 'deleted_at'])
      .where('id', '=', id)
      .execute();
    expect(comment).toMatchObject({ body_source: '' });
    expect(comment!.deleted_at).not.toBeNull();
    // Their session is over.
    expect(codeOf(await post(sam.token, 'still me?'))).toMatch(/TOKEN_INVALID|UNAUTHENTICATED/);
  });

  it("forgets a guest's address 30 days after their last comment", async () => {
    const { storyId } = await setup(api);
    const day = 86_400_000;
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() - days * day);
    const guestAt = (name: string, days: number) =>
      createGuest(api.db, { name, email: null, ip: '203.0.113.7', now: at(days) });
    const quiet = await guestAt('Quiet', 40);
    const busy = await guestAt('Busy', 40);
    await guestAt('Fresh', 2);
    for (const [author, days] of [
      [quiet.id, 35],
      [busy.id, 35],
      [busy.id, 5],
    ] as const) {
      await createComment(api.db, {
        storyId,
        authorId: author,
        bodySource: 'x',
        bodyHtml: '<p>x</p>',
        createdAt: at(days).toISOString(),
      });
    }
    const addresses = () =>
      api.db
        .selectFrom('users')
        .select(['username', 'ip_address'])
        .where('guest', '=', 1)
        .orderBy('username')
        .execute();
    // Kept 60 days (the setting): nobody's is old enough.
    expect(await forgetOldGuestAddresses(api.db, now, 60)).toBe(0);
    expect(await forgetOldGuestAddresses(api.db, now, 30)).toBe(1);
    expect(await addresses()).toEqual([
      { username: 'Busy', ip_address: '203.0.113.7' },
      { username: 'Fresh', ip_address: '203.0.113.7' },
      { username: 'Quiet', ip_address: null },
    ]);
    // Kept a day: Busy wrote 5 days ago, Fresh came 2 days ago and wrote nothing since.
    expect(await forgetOldGuestAddresses(api.db, now, 1)).toBe(2);
    expect((await addresses()).every((row) => row.ip_address === null)).toBe(true);
  });

  it('never lets an SSO account claim: its host vouches for its address, not this site', async () => {
    const { siteId, guest, post } = await setup(api);
    const sam = await guest('Sam', 'sam@example.com');
    await api.ok(CONFIRM, { input: { token: tokenFromMail(api, '/account/confirm-email') } });
    await post(sam.token, 'mine');
    const sso = await upsertSsoUser(api.db, {
      siteId,
      ssoId: 'host-1',
      email: 'sam@example.com',
      username: 'sam_sso',
    });
    expect(sso.emailVerified).toBe(true);
    expect(await countClaimableComments(api.db, sso)).toBe(0);
    expect(await claimGuestComments(api.db, sso)).toEqual({ claimed: 0, storyIds: [] });
  });

  it('lets moderators ban an address range for a time, audited, refusing guests and sign-ups', async () => {
    const { adminToken, start, guest, post } = await setup(api, {
      guestComments: true,
      guestPremod: false,
    });
    const sam = await guest('Sam');
    const reader = await api.signUp('reader');
    expect(
      codeOf(
        await api.request(BAN, { input: { range: '203.0.113.0/24', hours: 2 } }, reader.token),
      ),
    ).toBe('FORBIDDEN');
    for (const range of ['203.0.113', '10.0.0.0/8', '2001:db8::/16', 'nonsense', '1.2.3.4/33']) {
      const answer = await api.request(BAN, { input: { range, hours: 2 } }, adminToken);
      expect([range, codeOf(answer), answer.errors?.[0]?.extensions?.field]).toEqual([
        range,
        'INVALID_INPUT',
        'range',
      ]);
    }
    expect(
      codeOf(await api.request(BAN, { input: { range: '203.0.113.0/24', hours: 0 } }, adminToken)),
    ).toBe('INVALID_INPUT');

    const { banIpRange } = await api.ok(
      BAN,
      { input: { range: '203.0.113.99/24', hours: 2, reason: 'Spam wave' } },
      adminToken,
    );
    expect(banIpRange.ipBan).toMatchObject({
      range: '203.0.113.0/24',
      reason: 'Spam wave',
      active: true,
      liftedAt: null,
      createdBy: { username: 'admin' },
    });
    const banned = await start('Newcomer');
    expect(codeOf(banned)).toBe('IP_BANNED');
    expect(banned.errors?.[0]?.extensions?.until).toBe(banIpRange.ipBan.expiresAt);
    expect(codeOf(await post(sam.token, 'still here?'))).toBe('IP_BANNED');
    // The same address seen through a dual-stack socket is the same address.
    expect(codeOf(await start('Newcomer', undefined, `::ffff:${GUEST_IP}`))).toBe('IP_BANNED');
    const signUp = await api.request(
      `mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`,
      {
        input: {
          email: 'new@example.com',
          username: 'newcomer',
          password: 'correct horse battery',
        },
      },
      null,
      GUEST_IP,
    );
    expect(codeOf(signUp)).toBe('IP_BANNED');
    // Other networks, and members, are not touched.
    expect(codeOf(await start('Elsewhere', undefined, '198.51.100.1'))).toBeUndefined();

    // Expired after its time…
    api.setNow(new Date(Date.now() + 3 * 3_600_000));
    expect(codeOf(await post(sam.token, 'back'))).toBeUndefined();
    api.setNow(new Date());
    // …or lifted early.
    expect(codeOf(await post(sam.token, 'again'))).toBe('IP_BANNED');
    const lifted = await api.ok(LIFT, { id: banIpRange.ipBan.id }, adminToken);
    expect(lifted.liftIpBan.ipBan).toMatchObject({ active: false });
    expect(codeOf(await post(sam.token, 'free'))).toBeUndefined();
    expect((await api.ok(BANS, {}, adminToken)).ipBans.edges).toEqual([
      { node: { id: banIpRange.ipBan.id, range: '203.0.113.0/24', active: false } },
    ]);
    const AUDIT = `{ auditLog { edges { node { action targetLabel } } } }`;
    const actions = (await api.ok(AUDIT, {}, adminToken)).auditLog.edges.map(
      (edge: { node: { action: string; targetLabel: string } }) => edge.node,
    );
    expect(actions.slice(0, 2)).toEqual([
      { action: 'IP_BAN_LIFT', targetLabel: '203.0.113.0/24' },
      { action: 'IP_BAN', targetLabel: '203.0.113.0/24' },
    ]);
  });

  it('lists guests apart from members in Community, found by name and address', async () => {
    const { adminToken, guest } = await setup(api);
    await guest('Sam Smith', 'sam@example.com');
    await api.signUp('reader');
    const USERS = `query ($guest: Boolean, $query: String) {
      users(guest: $guest, query: $query) { edges { node { username isGuest } } }
    }`;
    const names = async (variables: Record<string, unknown>) =>
      (await api.ok(USERS, variables, adminToken)).users.edges.map(
        (edge: { node: { username: string } }) => edge.node.username,
      );
    expect(await names({ guest: true })).toEqual(['Sam Smith']);
    expect(await names({ guest: false })).toEqual(['reader', 'admin']);
    expect(await names({ query: 'smith' })).toEqual(['Sam Smith']);
    expect(await names({ query: 'sam@example' })).toEqual(['Sam Smith']);
  });
});
