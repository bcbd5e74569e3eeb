import { startSmtpInbox } from '../../../../e2e/support/smtpInbox';
import type { SmtpInbox } from '../../../../e2e/support/smtpInbox';
import { createMailer } from '../email/createMailer';
import { createMailQueue } from '../email/createMailQueue';
import { listDecisions } from '../db/store/comments';
import { updateSettings } from '../db/store/organization';
import { findUserById, updateUser } from '../db/store/users';
import { testDialects } from '../db/testDatabases';
import { testBox } from '../db/testFixtures';
import { seedCommunity } from '../graphql/testing/seedCommunity';
import type { Community, Member } from '../graphql/testing/seedCommunity';
import { useApi } from '../graphql/testing/useApi';
import { createMemoryLogger } from '../runtime/testing/createTestYoga';
import { MODERATION_LINK_TTL_MS, sendDueDigests, startModerationDigests } from './moderationAlerts';
import type { AlertDeps } from './moderationAlerts';

const SET = `mutation ($siteId: ID!, $frequency: ModerationAlertFrequency!) {
  setModerationAlert(input: { siteId: $siteId, frequency: $frequency }) { alert { frequency site { id } } }
}`;
const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id status } } }`;
const REPORT = `mutation ($id: ID!) { reportComment(input: { commentId: $id, reason: ABUSIVE }) { comment { id } } }`;
const PREVIEW = `query ($token: String!) { moderationLink(token: $token) {
  action moderator commentId author excerpt storyTitle storyUrl status decidable expiresAt } }`;
const USE = `mutation ($token: String!) { useModerationLink(input: { token: $token }) {
  link { action status decidable } } }`;

/** The one-time link of `action` in an email's text. */
function linkToken(text: string, label: 'approve' | 'reject'): string {
  const lead =
    label === 'approve'
      ? 'Or decide from here \\(you confirm on the page\\): |Approve: '
      : '^or |Reject: ';
  const match = new RegExp(`(?:${lead})(\\S+/account/moderate#token=([\\w-]+))`, 'm').exec(text);
  if (!match) throw new Error(`No ${label} link in:\n${text}`);
  return match[2]!;
}

describe.each(testDialects())('moderators’ email alerts on %s', (dialect) => {
  const api = useApi(dialect);
  let c: Community;

  beforeEach(async () => {
    c = await seedCommunity(api);
    // Alerts go to confirmed addresses only.
    for (const member of [c.moderator, c.admin]) {
      await updateUser(api.db, member.user.id, { emailVerified: true });
    }
  });

  const alert = (member: Member, frequency: string) =>
    api.ok(SET, { siteId: c.site.id, frequency }, member.token);
  const post = (body: string) =>
    api.ok(POST, { input: { storyId: c.story.id, body } }, c.commenter.token);
  const mailTo = (member: Member) => api.mail.filter((m) => m.to === member.user.email);
  /** Alerts are sent in the background: waits for `count` of them to `member`. */
  async function alertsTo(member: Member, count: number) {
    for (let i = 0; i < 50 && mailTo(member).length < count; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return mailTo(member);
  }

  it('lists every site for the viewer who moderates, OFF until chosen; nobody else’s', async () => {
    const query = `{ viewer { moderationAlerts { frequency site { id } } } }`;
    expect((await api.ok(query, {}, c.moderator.token)).viewer.moderationAlerts).toEqual([
      { frequency: 'OFF', site: { id: c.site.id } },
    ]);
    await alert(c.moderator, 'DAILY');
    expect((await api.ok(query, {}, c.moderator.token)).viewer.moderationAlerts).toEqual([
      { frequency: 'DAILY', site: { id: c.site.id } },
    ]);
    expect((await api.ok(query, {}, c.commenter.token)).viewer.moderationAlerts).toBeNull();
    const refused = await api.request(
      SET,
      { siteId: c.site.id, frequency: 'EACH' },
      c.commenter.token,
    );
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
  });

  it('emails each held comment to who asked, with links that act once, from their page only', async () => {
    await updateSettings(api.db, { premod: 'ALL' });
    await alert(c.moderator, 'EACH');
    await alert(c.admin, 'OFF');
    const posted = await post('Please look at this one.');
    const id = posted.createComment.comment.id as string;
    const [mail] = await alertsTo(c.moderator, 1);
    expect(mail!.subject).toBe('Awaiting review on Example: a comment by commenter');
    expect(mail!.text).toContain('Please look at this one.');
    expect(mail!.text).toContain(`/admin/moderate/pending?comment=${id}`);
    expect(mailTo(c.admin)).toEqual([]);

    const approve = linkToken(mail!.text, 'approve');
    const reject = linkToken(mail!.text, 'reject');
    // Opening the page decides nothing.
    const preview = (await api.ok(PREVIEW, { token: approve })).moderationLink;
    expect(preview).toMatchObject({
      action: 'APPROVE',
      moderator: 'moderator',
      commentId: id,
      author: 'commenter',
      excerpt: 'Please look at this one.',
      storyTitle: 'A story',
      status: 'PREMOD',
      decidable: true,
    });
    // Its button does, as the moderator, without a session.
    const used = (await api.ok(USE, { token: approve })).useModerationLink.link;
    expect(used).toMatchObject({ status: 'APPROVED', decidable: false });
    expect((await listDecisions(api.db, id))[0]).toMatchObject({
      moderator_id: c.moderator.user.id,
      status: 'APPROVED',
    });
    // Once: again, or the other link, changes nothing, and shows the text no more.
    expect((await api.ok(USE, { token: approve })).useModerationLink.link.status).toBe('APPROVED');
    expect((await api.ok(PREVIEW, { token: approve })).moderationLink.excerpt).toBe('');
    expect((await api.ok(USE, { token: reject })).useModerationLink.link).toMatchObject({
      status: 'APPROVED',
      decidable: false,
    });
    expect(await listDecisions(api.db, id)).toHaveLength(1);
    const forged = await api.request(PREVIEW, { token: 'not-a-token' });
    expect(forged.errors?.[0]?.extensions?.['code']).toBe('TOKEN_INVALID');
  });

  it('ends the links with time and with signing out everywhere; none for who unsubscribed', async () => {
    await updateSettings(api.db, { premod: 'ALL' });
    await alert(c.moderator, 'EACH');
    await post('First.');
    await post('Second.');
    const mails = await alertsTo(c.moderator, 2);
    const [first, second] = mails.map((m) => linkToken(m.text, 'reject'));

    api.setNow(new Date(Date.now() + MODERATION_LINK_TTL_MS + 1_000));
    expect((await api.request(USE, { token: first })).errors?.[0]?.extensions?.['code']).toBe(
      'TOKEN_EXPIRED',
    );
    api.setNow(new Date());
    const moderator = (await findUserById(api.db, c.moderator.user.id))!;
    await api.db
      .updateTable('users')
      .set({ session_epoch: moderator.sessionEpoch + 1 })
      .where('id', '=', moderator.id)
      .execute();
    expect((await api.request(USE, { token: second })).errors?.[0]?.extensions?.['code']).toBe(
      'TOKEN_INVALID',
    );

    // The email's unsubscribe link ends the alerts with every other notification.
    const unsubscribe = /unsubscribe#token=([\w-]+)/.exec(mails[0]!.text)?.[1];
    await api.ok(
      `mutation ($token: String!) { unsubscribe(input: { token: $token }) { user { id } } }`,
      { token: unsubscribe },
    );
    await post('Third.');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailTo(c.moderator)).toHaveLength(2);
    const signedInAgain = await api.deps.tokens.sign({
      userId: moderator.id,
      role: 'MODERATOR',
      epoch: moderator.sessionEpoch + 1,
    });
    const query = `{ viewer { moderationAlerts { frequency } } }`;
    expect((await api.ok(query, {}, signedInAgain)).viewer.moderationAlerts).toEqual([
      { frequency: 'OFF' },
    ]);
  });

  it('sends no Approve / Reject links to who signs in with a second factor, and ends theirs', async () => {
    await updateSettings(api.db, { premod: 'ALL' });
    await alert(c.moderator, 'EACH');
    await post('Before.');
    const [before] = await alertsTo(c.moderator, 1);
    const approve = linkToken(before!.text, 'approve');
    await api.db
      .updateTable('users')
      .set({ totp_secret: 'sealed:v1:x', totp_enabled_at: new Date().toISOString() })
      .where('id', '=', c.moderator.user.id)
      .execute();
    expect((await api.ok(PREVIEW, { token: approve })).moderationLink).toMatchObject({
      decidable: false,
      excerpt: '',
    });
    expect((await api.request(USE, { token: approve })).errors?.[0]?.extensions?.['code']).toBe(
      'TOKEN_INVALID',
    );
    await post('After.');
    const [, after] = await alertsTo(c.moderator, 2);
    expect(after!.text).toContain('After.');
    expect(after!.text).toContain('/admin/moderate/pending?comment=');
    expect(after!.text).not.toContain('/account/moderate#token=');
  });

  it('ends a moderator’s links when their role changes, even back again', async () => {
    await updateSettings(api.db, { premod: 'ALL' });
    await alert(c.moderator, 'EACH');
    await post('Role change.');
    const [mail] = await alertsTo(c.moderator, 1);
    const approve = linkToken(mail!.text, 'approve');
    const setRole = (role: string) =>
      api.ok(
        `mutation ($id: ID!, $role: Role!) { setUserRole(input: { userId: $id, role: $role }) { user { id } } }`,
        { id: c.moderator.user.id, role },
        c.admin.token,
      );
    await setRole('COMMENTER');
    await setRole('MODERATOR');
    expect((await api.request(USE, { token: approve })).errors?.[0]?.extensions?.['code']).toBe(
      'TOKEN_INVALID',
    );
  });

  it('decides once when Approve and Reject are used at the same time', async () => {
    await updateSettings(api.db, { premod: 'ALL' });
    await alert(c.moderator, 'EACH');
    const id = (await post('Both at once.')).createComment.comment.id as string;
    const [mail] = await alertsTo(c.moderator, 1);
    await Promise.all([
      api.request(USE, { token: linkToken(mail!.text, 'approve') }),
      api.request(USE, { token: linkToken(mail!.text, 'reject') }),
    ]);
    expect(await listDecisions(api.db, id)).toHaveLength(1);
  });

  it('tells of a comment an edit puts on hold', async () => {
    await updateSettings(api.db, { premod: 'LINKS' });
    await alert(c.moderator, 'EACH');
    const id = (await post('Plain words.')).createComment.comment.id as string;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mailTo(c.moderator)).toEqual([]);
    const edited = await api.ok(
      `mutation ($id: ID!) { editComment(input: { commentId: $id, body: "Now with https://spam.example" }) { comment { status } } }`,
      { id },
      c.commenter.token,
    );
    expect(edited.editComment.comment.status).toBe('PREMOD');
    const [mail] = await alertsTo(c.moderator, 1);
    expect(mail!.subject).toBe('Awaiting review on Example: a comment by commenter');
    expect(mail!.text).toContain('> Now with https://spam.example');
  });

  it('tells of a comment when a report puts it in a queue, not at every report', async () => {
    await alert(c.moderator, 'EACH');
    const comment = await c.comment();
    await api.ok(REPORT, { id: comment.id }, c.commenter.token);
    const other = await c.member('other');
    await api.ok(REPORT, { id: comment.id }, other.token);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const mails = mailTo(c.moderator);
    expect(mails.map((m) => m.subject)).toEqual(['Reported on Example: a comment by target']);
    expect(mails[0]!.text).toContain(`/admin/moderate/reported?comment=${comment.id}`);
  });

  it('sends hourly digests through a real SMTP server, once, with what came since the last', async () => {
    let inbox: SmtpInbox | undefined;
    try {
      inbox = await startSmtpInbox();
      const { logger } = createMemoryLogger();
      const mailer = createMailQueue({
        db: api.db,
        box: testBox,
        logger,
        tickMs: 0,
        transport: createMailer({
          smtpUrl: inbox.url,
          dataDir: '/nonexistent',
          from: 'Parley <no-reply@127.0.0.1>',
          logger,
          production: false,
        }),
      });
      let now = new Date();
      const deps = {
        db: api.db,
        mailer,
        logger,
        publicUrl: 'http://127.0.0.1:3000',
        now: () => now,
      };
      api.setNow(now);
      await updateSettings(api.db, { premod: 'ALL' });
      await alert(c.moderator, 'HOURLY');
      // Nothing due within the hour.
      api.setNow(new Date(now.getTime() + 1_000));
      await post('Held one.');
      await post('Held two.');
      expect(await sendDueDigests(deps)).toBe(0);

      now = new Date(now.getTime() + 3_600_000 + 1_000);
      api.setNow(now);
      // Two processes look at once: one digest.
      const sent = await Promise.all([sendDueDigests(deps), sendDueDigests(deps)]);
      expect(sent[0] + sent[1]).toBe(1);
      const digest = await inbox.waitFor((m) => m.to.includes(c.moderator.user.email));
      expect(digest.subject).toBe('2 comments to moderate on Example');
      expect(digest.text).toContain('in the last hour, 2 comments entered the queues of Example');
      expect(digest.text).toContain('Held one.');
      expect(digest.text).toContain('Held two.');
      expect(digest.text).toMatch(/Approve: \S+\/account\/moderate#token=/);
      expect(digest.html).toContain('>approve</a>');

      // The next hour holds nothing new: no email.
      now = new Date(now.getTime() + 3_600_000 + 1_000);
      expect(await sendDueDigests(deps)).toBe(0);
      expect(inbox.messages.filter((m) => m.to.includes(c.moderator.user.email))).toHaveLength(1);
      mailer.close();
    } finally {
      await inbox?.close();
    }
  });
});

describe('the digests’ timer', () => {
  it('looks no more once stopped, not even its first look (the database may be closed)', async () => {
    const errors: unknown[] = [];
    const deps = {
      // Any look at all fails here, and would be logged.
      db: {},
      logger: { error: (...args: unknown[]) => errors.push(args), info: () => undefined },
      publicUrl: 'http://127.0.0.1:3000',
      now: () => new Date(),
    } as unknown as AlertDeps;
    await startModerationDigests(deps).stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toEqual([]);
    // Not stopped: its first look runs (and fails on this database, logged).
    const running = startModerationDigests(deps, 60_000);
    for (let i = 0; i < 50 && errors.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await running.stop();
    expect(errors).toHaveLength(1);
  });
});
