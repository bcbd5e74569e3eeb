/**
 * The permission matrix of moderation.ts and admin.ts: every mutation and moderator query × every
 * role → UNAUTHENTICATED, FORBIDDEN or success; and each refused to an admin session that skipped
 * the account's second factor. One row per cell, so a failure names the cell.
 * (`moderationQueueUpdated` is checked in queueSubscription.test.ts: it needs a stream.)
 */
import type { Comment } from '../../../db/store/comments';
import { testDialects } from '../../../db/testDatabases';
import { seedCommunity } from '../../testing/seedCommunity';
import type { Community } from '../../testing/seedCommunity';
import { useApi } from '../../testing/useApi';
import type { Api } from '../../testing/useApi';
import { adminResolvers } from '../admin';
import { moderationResolvers } from '../moderation';

type Role = 'anonymous' | 'COMMENTER' | 'STAFF' | 'MODERATOR' | 'ADMIN';
const ROLES: readonly Role[] = ['anonymous', 'COMMENTER', 'STAFF', 'MODERATOR', 'ADMIN'];

interface Operation {
  /** The least role that may run it. */
  least: 'MODERATOR' | 'ADMIN';
  query: string;
  variables(
    c: Community,
    comment: Comment,
    api: Api,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
}

const byComment = (name: string): Operation => ({
  least: 'MODERATOR',
  query: `mutation ($id: ID!) { ${name}(input: { commentId: $id }) { comment { id } } }`,
  variables: (_c, comment) => ({ id: comment.id }),
});
const byUser = (name: string, extra: string, least: Operation['least'] = 'MODERATOR') => ({
  least,
  query: `mutation ($id: ID!) { ${name}(input: { userId: $id ${extra} }) { user { id } } }`,
  variables: (c: Community) => ({ id: c.target.user.id }),
});
/** An endpoint to act on, made by the admin. */
async function matrixWebhook(c: Community, api: Api): Promise<string> {
  const data = await api.ok(
    `mutation { createWebhook(input: { url: "https://hooks.example.com/in", events: [USER_BANNED] }) { webhook { id } } }`,
    {},
    c.admin.token,
  );
  return data.createWebhook.webhook.id as string;
}

const moderatorQuery = (query: string): Operation => ({
  least: 'MODERATOR',
  query,
  variables: (c) => ({ siteId: c.site.id }),
});

const OPERATIONS: Record<string, Operation> = {
  approveComment: byComment('approveComment'),
  rejectComment: byComment('rejectComment'),
  featureComment: byComment('featureComment'),
  unfeatureComment: byComment('unfeatureComment'),
  pinComment: byComment('pinComment'),
  unpinComment: byComment('unpinComment'),
  banUser: byUser('banUser', 'message: "Bye"'),
  unbanUser: byUser('unbanUser', ''),
  suspendUser: byUser('suspendUser', 'until: "2999-01-01T00:00:00.000Z"'),
  setUserPremod: byUser('setUserPremod', 'premod: true'),
  setUserRole: byUser('setUserRole', 'role: STAFF', 'ADMIN'),
  updateSettings: {
    least: 'ADMIN',
    query: `mutation { updateSettings(input: { reportThreshold: 4 }) { settings { reportThreshold } } }`,
    variables: () => ({}),
  },
  updateStory: {
    least: 'MODERATOR',
    query: `mutation ($id: ID!) { updateStory(input: { storyId: $id, status: CLOSED }) { story { id } } }`,
    variables: (c) => ({ id: c.story.id }),
  },
  createSite: {
    least: 'ADMIN',
    query: `mutation { createSite(input: { name: "B", url: "https://b.example", allowedOrigins: [] }) { site { id } } }`,
    variables: () => ({}),
  },
  updateSite: {
    least: 'ADMIN',
    query: `mutation ($siteId: ID!) { updateSite(input: { siteId: $siteId, name: "Renamed" }) { site { id } } }`,
    variables: (c) => ({ siteId: c.site.id }),
  },
  rotateSsoKey: {
    least: 'ADMIN',
    query: `mutation ($siteId: ID!) { rotateSsoKey(input: { siteId: $siteId }) { site { id } } }`,
    variables: (c) => ({ siteId: c.site.id }),
  },
  sites: moderatorQuery(`query { sites { id } }`),
  moderationQueue: moderatorQuery(
    `query ($siteId: ID) { moderationQueue(queue: PENDING, siteId: $siteId) { edges { cursor } } }`,
  ),
  moderationCounts: moderatorQuery(
    `query ($siteId: ID) { moderationCounts(siteId: $siteId) { pending } }`,
  ),
  users: moderatorQuery(`query { users { edges { node { id } } } }`),
  stories: moderatorQuery(
    `query ($siteId: ID) { stories(siteId: $siteId) { edges { node { id } } } }`,
  ),
  dashboard: moderatorQuery(`query { dashboard { today { newComments } } }`),
  auditLog: {
    least: 'ADMIN',
    query: `query { auditLog { edges { node { id } } } }`,
    variables: () => ({}),
  },
  user: {
    least: 'MODERATOR',
    query: `query ($id: ID!) { user(id: $id) { id } }`,
    variables: (c) => ({ id: c.target.user.id }),
  },
  myDecisions: moderatorQuery(`query { myDecisions { id } }`),
  revokeSsoKey: {
    least: 'ADMIN',
    query: `mutation ($siteId: ID!, $keyId: ID!) {
      revokeSsoKey(input: { siteId: $siteId, keyId: $keyId }) { site { id } }
    }`,
    // A key to revoke: rotated in by the admin first.
    variables: async (c, _comment, api) => {
      const data = await api.ok(
        `mutation ($siteId: ID!) { rotateSsoKey(input: { siteId: $siteId }) { site { ssoKeys { id } } } }`,
        { siteId: c.site.id },
        c.admin.token,
      );
      return { siteId: c.site.id, keyId: data.rotateSsoKey.site.ssoKeys[0].id };
    },
  },
  sendTestEmail: {
    least: 'ADMIN',
    query: `mutation { sendTestEmail { ok } }`,
    variables: () => ({}),
  },
  apiTokens: {
    least: 'ADMIN',
    query: `query { apiTokens { id } }`,
    variables: () => ({}),
  },
  createApiToken: {
    least: 'ADMIN',
    query: `mutation { createApiToken(input: { name: "Matrix", scope: READ }) { apiToken { id } } }`,
    variables: () => ({}),
  },
  revokeApiToken: {
    least: 'ADMIN',
    query: `mutation ($id: ID!) { revokeApiToken(input: { tokenId: $id }) { apiToken { id } } }`,
    // A token to revoke: made by the admin first.
    variables: async (c, _comment, api) => {
      const data = await api.ok(
        `mutation { createApiToken(input: { name: "To revoke", scope: READ }) { apiToken { id } } }`,
        {},
        c.admin.token,
      );
      return { id: data.createApiToken.apiToken.id };
    },
  },
  setModerationAlert: {
    least: 'MODERATOR',
    query: `mutation ($id: ID!) { setModerationAlert(input: { siteId: $id, frequency: DAILY }) { alert { frequency } } }`,
    variables: (c) => ({ id: c.site.id }),
  },
  webhooks: {
    least: 'ADMIN',
    query: `query { webhooks { id } }`,
    variables: () => ({}),
  },
  createWebhook: {
    least: 'ADMIN',
    query: `mutation { createWebhook(input: { url: "https://hooks.example.com/in", events: [USER_BANNED] }) { webhook { id } } }`,
    variables: () => ({}),
  },
  updateWebhook: {
    least: 'ADMIN',
    query: `mutation ($id: ID!) { updateWebhook(input: { webhookId: $id, description: "Matrix" }) { webhook { id } } }`,
    variables: async (c, _comment, api) => ({ id: await matrixWebhook(c, api) }),
  },
  deleteWebhook: {
    least: 'ADMIN',
    query: `mutation ($id: ID!) { deleteWebhook(input: { webhookId: $id }) { webhookId } }`,
    variables: async (c, _comment, api) => ({ id: await matrixWebhook(c, api) }),
  },
  rollWebhookSecret: {
    least: 'ADMIN',
    query: `mutation ($id: ID!) { rollWebhookSecret(input: { webhookId: $id }) { webhook { id } } }`,
    variables: async (c, _comment, api) => ({ id: await matrixWebhook(c, api) }),
  },
  // No dispatcher in these tests: the delivery is queued, not sent.
  sendTestWebhook: {
    least: 'ADMIN',
    query: `mutation ($id: ID!) { sendTestWebhook(input: { webhookId: $id }) { delivery { id } } }`,
    variables: async (c, _comment, api) => ({ id: await matrixWebhook(c, api) }),
  },
  redeliverWebhook: {
    least: 'ADMIN',
    query: `mutation ($id: ID!) { redeliverWebhook(input: { deliveryId: $id }) { delivery { id } } }`,
    variables: async (c, _comment, api) => {
      const data = await api.ok(
        `mutation ($id: ID!) { sendTestWebhook(input: { webhookId: $id }) { delivery { id } } }`,
        { id: await matrixWebhook(c, api) },
        c.admin.token,
      );
      return { id: data.sendTestWebhook.delivery.id };
    },
  },
  inviteModerator: {
    least: 'ADMIN',
    query: `mutation { inviteModerator(input: { email: "invited@example.com" }) { user { id } } }`,
    variables: () => ({}),
  },
};

const RANK: Record<Role, number> = {
  anonymous: -1,
  COMMENTER: 0,
  STAFF: 1,
  MODERATOR: 2,
  ADMIN: 3,
};

function expected(role: Role, least: Operation['least']): string {
  if (role === 'anonymous') return 'UNAUTHENTICATED';
  return RANK[role] >= RANK[least] ? 'success' : 'FORBIDDEN';
}

const CELLS = Object.entries(OPERATIONS).flatMap(([name, op]) =>
  ROLES.map((role) => [name, role, expected(role, op.least)] as const),
);

describe.each(testDialects())('permission matrix on %s', (dialect) => {
  const api = useApi(dialect);

  it('covers every mutation and moderator query of moderation.ts and admin.ts', () => {
    // Read from the resolver maps: an operation added there without a row here fails this test.
    const resolvers = [moderationResolvers, adminResolvers].flatMap((r) => [
      ...Object.keys(r.Query),
      ...Object.keys(r.Mutation),
    ]);
    expect(Object.keys(OPERATIONS).sort()).toEqual(resolvers.sort());
  });

  it.each(CELLS)('%s as %s → %s', async (name, role, outcome) => {
    const c = await seedCommunity(api);
    const comment = await c.comment({ status: 'PREMOD' });
    const op = OPERATIONS[name]!;
    const tokens: Record<Role, string | null> = {
      anonymous: null,
      COMMENTER: c.commenter.token,
      STAFF: c.staff.token,
      MODERATOR: c.moderator.token,
      ADMIN: c.admin.token,
    };
    const answer = await api.request(op.query, await op.variables(c, comment, api), tokens[role]);
    if (outcome === 'success') {
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.[name]).toBeTruthy();
    } else {
      expect(answer.errors?.map((e) => e.extensions?.code)).toEqual([outcome]);
    }
  });

  // An admin with two-factor sign-in whose session skipped it (an emailed link, a session from
  // before enrolment) may do none of it: the staff powers need the second factor.
  it.each(Object.keys(OPERATIONS))(
    '%s as an admin whose session skipped the second factor → SECOND_FACTOR_REQUIRED',
    async (name) => {
      const c = await seedCommunity(api);
      const comment = await c.comment({ status: 'PREMOD' });
      const op = OPERATIONS[name]!;
      const variables = await op.variables(c, comment, api);
      await api.db
        .updateTable('users')
        .set({ totp_secret: 'sealed:v1:x', totp_enabled_at: '2026-11-01T00:00:00.000Z' })
        .where('id', '=', c.admin.user.id)
        .execute();
      const answer = await api.request(op.query, variables, c.admin.token);
      expect(answer.errors?.map((e) => e.extensions?.code)).toEqual(['SECOND_FACTOR_REQUIRED']);
    },
  );
});
