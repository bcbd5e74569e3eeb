import { createComment } from '../../db/store/comments';
import { consumeToken } from '../../db/store/tokens';
import { listIgnoredIds } from '../../db/store/userModeration';
import { findOrCreateStory } from '../../db/store/stories';
import { findUserById } from '../../db/store/users';
import type { CommentStatus } from '../../db/schema';
import { testDialects } from '../../db/testDatabases';
import { PASSWORD, PUBLIC_URL, SITE_ORIGIN, useApi } from '../testing/useApi';
import { codeOf, tokenFromMail } from './account/accountTestKit';

const DOWNLOAD = `mutation { requestCommentsDownload { ok } }`;
const REQUEST_DELETION = `mutation { requestAccountDeletion { user { id } } }`;
const CANCEL_DELETION = `mutation { cancelAccountDeletion { user { id } } }`;
const IGNORE = `mutation ($input: UserIdInput!) { ignoreUser(input: $input) { user { id username } } }`;
const UNIGNORE = `mutation ($input: UserIdInput!) { unignoreUser(input: $input) { user { id } } }`;

/** Every account mutation that needs a session (uploadAvatar is checked in its own suite). */
const SIGNED_IN_ONLY: [name: string, query: string, variables: Record<string, unknown>][] = [
  [
    'updateUsername',
    `mutation ($input: UpdateUsernameInput!) { updateUsername(input: $input) { user { id } } }`,
    { input: { username: 'someone' } },
  ],
  [
    'updateEmail',
    `mutation ($input: UpdateEmailInput!) { updateEmail(input: $input) { user { id } } }`,
    { input: { email: 'new@example.com', password: PASSWORD } },
  ],
  [
    'updatePassword',
    `mutation ($input: UpdatePasswordInput!) { updatePassword(input: $input) { user { id } } }`,
    { input: { oldPassword: PASSWORD, newPassword: 'a brand new secret' } },
  ],
  [
    'updateNotificationSettings',
    `mutation ($input: UpdateNotificationSettingsInput!) {
      updateNotificationSettings(input: $input) { user { id } }
    }`,
    { input: { onReply: true } },
  ],
  ['requestCommentsDownload', `mutation { requestCommentsDownload { ok } }`, {}],
  ['requestAccountDeletion', `mutation { requestAccountDeletion { user { id } } }`, {}],
  ['cancelAccountDeletion', `mutation { cancelAccountDeletion { user { id } } }`, {}],
  [
    'ignoreUser',
    `mutation ($input: UserIdInput!) { ignoreUser(input: $input) { user { id } } }`,
    { input: { userId: 'USER' } },
  ],
  [
    'unignoreUser',
    `mutation ($input: UserIdInput!) { unignoreUser(input: $input) { user { id } } }`,
    { input: { userId: 'USER' } },
  ],
];

// Another user's `User` object is reached through `unignoreUser` (idempotent, and ours): the
// queries that list users belong to other areas.
const COMMENTS_OF = `mutation ($input: UserIdInput!, $first: Int, $after: String) {
  unignoreUser(input: $input) { user { comments(first: $first, after: $after) {
    edges { node { id status } } pageInfo { hasNextPage endCursor }
  } } }
}`;
const MY_COMMENTS = `query ($first: Int, $after: String) { viewer { comments(first: $first, after: $after) {
  edges { node { id status } } pageInfo { hasNextPage endCursor }
} } }`;

describe.each(testDialects())('account on %s', (dialect) => {
  const api = useApi(dialect);

  it.each(SIGNED_IN_ONLY)(
    '%s answers UNAUTHENTICATED when signed out and changes nothing',
    async (_name, query, variables) => {
      await api.install();
      const { userId } = await api.signUp('reader_1');
      const before = await findUserById(api.db, userId);
      const withUser = JSON.parse(
        JSON.stringify(variables).replace('"USER"', JSON.stringify(userId)),
      );
      const answer = await api.request(query, withUser);
      expect(codeOf(answer)).toBe('UNAUTHENTICATED');
      expect(await findUserById(api.db, userId)).toEqual(before);
      expect(api.mail).toHaveLength(0);
    },
  );

  describe('download, deletion and ignoring', () => {
    it('mails a single-use DOWNLOAD link to the viewer', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      expect(await api.ok(DOWNLOAD, {}, token)).toEqual({ requestCommentsDownload: { ok: true } });
      expect(api.mail).toHaveLength(1);
      expect(api.mail[0]?.to).toBe('reader_1@example.com');
      expect(api.mail[0]?.text).toContain(`${PUBLIC_URL}/account/download#token=`);
      const link = tokenFromMail(api, '/account/download');
      expect(await consumeToken(api.db, 'DOWNLOAD', link)).toEqual({
        ok: true,
        userId,
        createdBy: null,
      });
    });

    it('answers the user’s comments for the emailed link, signed out and once', async () => {
      await api.install();
      const { token } = await api.signUp('reader_1');
      const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id url } }`, {
        url: 'https://site.example/post',
      });
      await api.ok(
        `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
        { input: { storyId: story.id, body: 'Mine, **all** mine' } },
        token,
      );
      await api.ok(DOWNLOAD, {}, token);
      const link = tokenFromMail(api, '/account/download');
      const GET = `mutation ($input: TokenInput!) {
        downloadCommentsData(input: $input) { username comments { storyUrl body status } }
      }`;
      const data = await api.ok(GET, { input: { token: link } });
      expect(data.downloadCommentsData).toEqual({
        username: 'reader_1',
        comments: [{ storyUrl: story.url, body: 'Mine, **all** mine', status: 'NONE' }],
      });
      const again = await api.request(GET, { input: { token: link } });
      expect(again.errors?.[0]?.extensions).toMatchObject({
        code: 'TOKEN_INVALID',
        field: 'token',
      });
    });

    it('shows a user their own settings, ignore list and deletion date; no one else', async () => {
      await api.install();
      const ada = await api.signUp('ada_l');
      const bob = await api.signUp('bob_b');
      await api.ok(
        `mutation ($input: UpdateNotificationSettingsInput!) { updateNotificationSettings(input: $input) { user { id } } }`,
        { input: { onReply: false } },
        ada.token,
      );
      await api.ok(
        `mutation ($input: UserIdInput!) { ignoreUser(input: $input) { user { id } } }`,
        { input: { userId: bob.userId } },
        ada.token,
      );
      await api.ok(REQUEST_DELETION, {}, ada.token);
      const PRIVATE = `notificationSettings { onReply onFeatured onModeration }
        ignoredUsers { username }
        deletionRequestedAt`;
      const PROFILE = `{ viewer { ${PRIVATE} } }`;
      const own = await api.ok(PROFILE, {}, ada.token);
      expect(own.viewer).toEqual({
        notificationSettings: { onReply: false, onFeatured: true, onModeration: true },
        ignoredUsers: [{ username: 'bob_b' }],
        deletionRequestedAt: expect.any(String),
      });
      const theirs = await api.ok(PROFILE, {}, bob.token);
      expect(theirs.viewer).toEqual({
        notificationSettings: { onReply: true, onFeatured: true, onModeration: true },
        ignoredUsers: [],
        deletionRequestedAt: null,
      });
      // Ada's private fields, seen by Bob through her comment's author: nothing.
      const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
        url: 'https://site.example/private',
      });
      const posted = await api.ok(
        `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`,
        { input: { storyId: story.id, body: 'Hello' } },
        ada.token,
      );
      const seen = await api.ok(
        `query ($id: ID!) { comment(id: $id) { author { ${PRIVATE} } } }`,
        { id: posted.createComment.comment.id },
        bob.token,
      );
      expect(seen.comment.author).toEqual({
        notificationSettings: null,
        ignoredUsers: null,
        deletionRequestedAt: null,
      });
    });

    it('records a deletion request once, mails when and how to cancel, and cancels it', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      const at = new Date('2030-03-01T10:00:00.000Z');
      api.setNow(at);
      await api.ok(REQUEST_DELETION, {}, token);
      expect((await findUserById(api.db, userId))?.deletionRequestedAt).toBe(at.toISOString());
      expect(api.mail[0]?.to).toBe('reader_1@example.com');
      // A week on, in the reader's language (English here), in UTC.
      expect(api.mail[0]?.text).toContain('8 March 2030 at 10:00 UTC');
      expect(api.mail[0]?.text).toContain(`${PUBLIC_URL}/account`);
      expect(api.mail[0]?.text).toContain('Cancel deletion');

      // Asking again a day later keeps the first date: the grace period is not extended.
      api.setNow(new Date('2030-03-02T10:00:00.000Z'));
      await api.ok(REQUEST_DELETION, {}, token);
      expect((await findUserById(api.db, userId))?.deletionRequestedAt).toBe(at.toISOString());

      await api.ok(CANCEL_DELETION, {}, token);
      expect((await findUserById(api.db, userId))?.deletionRequestedAt).toBeNull();
    });

    it('ignores and un-ignores another commenter, idempotently', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      const other = await api.signUp('reader_2');
      const data = await api.ok(IGNORE, { input: { userId: other.userId } }, token);
      expect(data.ignoreUser.user).toEqual({ id: other.userId, username: 'reader_2' });
      await api.ok(IGNORE, { input: { userId: other.userId } }, token);
      expect(await listIgnoredIds(api.db, userId)).toEqual([other.userId]);
      await api.ok(UNIGNORE, { input: { userId: other.userId } }, token);
      await api.ok(UNIGNORE, { input: { userId: other.userId } }, token);
      expect(await listIgnoredIds(api.db, userId)).toEqual([]);
    });

    it('refuses to ignore oneself (INVALID_INPUT) or nobody (NOT_FOUND)', async () => {
      await api.install();
      const { token, userId } = await api.signUp('reader_1');
      const self = await api.request(IGNORE, { input: { userId } }, token);
      expect(self.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'userId',
      });
      const nobody = await api.request(IGNORE, { input: { userId: 'no-such-user' } }, token);
      expect(codeOf(nobody)).toBe('NOT_FOUND');
      expect(await listIgnoredIds(api.db, userId)).toEqual([]);
    });

    it('refuses to ignore staff, moderators and admins (FORBIDDEN), but un-ignores them', async () => {
      const { adminId } = await api.install();
      const { token, userId } = await api.signUp('reader_1');
      const admin = await api.request(IGNORE, { input: { userId: adminId } }, token);
      expect(codeOf(admin)).toBe('FORBIDDEN');
      const staff = await api.signUp('reporter');
      await api.db
        .updateTable('users')
        .set({ role: 'STAFF' })
        .where('id', '=', staff.userId)
        .execute();
      expect(codeOf(await api.request(IGNORE, { input: { userId: staff.userId } }, token))).toBe(
        'FORBIDDEN',
      );
      expect(await listIgnoredIds(api.db, userId)).toEqual([]);

      // Someone ignored before a promotion can still be un-ignored.
      const later = await api.signUp('later_mod');
      await api.ok(IGNORE, { input: { userId: later.userId } }, token);
      await api.db
        .updateTable('users')
        .set({ role: 'MODERATOR' })
        .where('id', '=', later.userId)
        .execute();
      await api.ok(UNIGNORE, { input: { userId: later.userId } }, token);
      expect(await listIgnoredIds(api.db, userId)).toEqual([]);
    });
  });

  describe('User.comments', () => {
    async function seed() {
      const { siteId, adminToken } = await api.install();
      const alice = await api.signUp('alice');
      const bob = await api.signUp('bob');
      const { story } = await findOrCreateStory(api.db, {
        siteId,
        url: `${SITE_ORIGIN}/a`,
        title: 'A',
      });
      const write = async (authorId: string, minute: number, status: CommentStatus) =>
        (
          await createComment(api.db, {
            storyId: story.id,
            authorId,
            bodySource: `c${minute}`,
            bodyHtml: `<p>c${minute}</p>`,
            status,
            createdAt: new Date(Date.UTC(2026, 0, 1, 9, minute)).toISOString(),
          })
        ).comment.id;
      const ids = {
        published: await write(alice.userId, 1, 'NONE'),
        held: await write(alice.userId, 2, 'PREMOD'),
        approved: await write(alice.userId, 3, 'APPROVED'),
        rejected: await write(alice.userId, 4, 'REJECTED'),
      };
      await write(bob.userId, 5, 'NONE');
      return { adminToken, alice, bob, ids };
    }

    it('shows the author all their comments, held and rejected too, newest first', async () => {
      const { alice, ids } = await seed();
      const data = await api.ok(MY_COMMENTS, {}, alice.token);
      expect(data.viewer.comments.edges.map((e: { node: unknown }) => e.node)).toEqual([
        { id: ids.rejected, status: 'REJECTED' },
        { id: ids.approved, status: 'APPROVED' },
        { id: ids.held, status: 'PREMOD' },
        { id: ids.published, status: 'NONE' },
      ]);
    });

    it('shows another commenter only the published ones, and a moderator all', async () => {
      const { adminToken, alice, bob, ids } = await seed();
      const input = { userId: alice.userId };
      const asBob = await api.ok(COMMENTS_OF, { input }, bob.token);
      expect(
        asBob.unignoreUser.user.comments.edges.map((e: { node: { id: string } }) => e.node.id),
      ).toEqual([ids.approved, ids.published]);
      const asAdmin = await api.ok(COMMENTS_OF, { input }, adminToken);
      expect(asAdmin.unignoreUser.user.comments.edges).toHaveLength(4);
    });

    it('pages with first/after as a Relay connection', async () => {
      const { alice, ids } = await seed();
      const first = await api.ok(MY_COMMENTS, { first: 3 }, alice.token);
      expect(first.viewer.comments.pageInfo.hasNextPage).toBe(true);
      const rest = await api.ok(
        MY_COMMENTS,
        { first: 3, after: first.viewer.comments.pageInfo.endCursor },
        alice.token,
      );
      expect(rest.viewer.comments.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
        ids.published,
      ]);
      expect(rest.viewer.comments.pageInfo.hasNextPage).toBe(false);
      const forged = await api.request(MY_COMMENTS, { after: 'not-a-cursor' }, alice.token);
      expect(forged.errors?.[0]?.extensions).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'after',
      });
    });
  });
});
