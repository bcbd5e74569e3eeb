/**
 * Admins' API tokens (db/store/apiTokens.ts; what a token may do: ../../apiTokenAccess.ts). Only
 * an admin signed in (a session, not a token) makes or revokes one: a leaked token cannot mint
 * itself a successor, nor revoke the tokens of the people cleaning up after it. A secret is
 * answered once, in createApiToken's own answer, as SSO keys' are.
 */
import { inTransaction } from '../../../db/inTransaction';
import {
  createApiToken,
  findApiToken,
  listApiTokens,
  revokeApiToken,
} from '../../../db/store/apiTokens';
import type { ApiToken } from '../../../db/store/apiTokens';
import type { AuditTarget } from '../../../db/store/auditLog';
import { ParleyError } from '../../../ParleyError';
import { audit } from '../../audit';
import type { ParleyContext } from '../../context';
import { requireRole, requireSignedInAdmin } from '../../permissions';
import type { Resolvers } from '../resolverTypes.generated';

/** Longest token name, in characters. */
export const API_TOKEN_NAME_MAX_LENGTH = 80;

/** Most tokens that work at once: past this, revoke one first. */
export const API_TOKENS_MAX_ACTIVE = 50;

/** Secrets of tokens made during a request, by token id. */
const freshSecrets = new WeakMap<ParleyContext, Map<string, string>>();

function tokenTarget(token: ApiToken): AuditTarget {
  return { type: 'api_token', id: token.id, label: token.name };
}

/** The name trimmed; `INVALID_INPUT` (field `name`) when empty or too long. */
function tokenName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > API_TOKEN_NAME_MAX_LENGTH) {
    throw new ParleyError(
      'INVALID_INPUT',
      `Give the token a name of 1 to ${API_TOKEN_NAME_MAX_LENGTH} characters.`,
      { field: 'name' },
    );
  }
  return trimmed;
}

export const apiTokenAdminResolvers = {
  Query: {
    apiTokens: (_root, _args, ctx) => {
      requireRole(ctx, 'ADMIN');
      return listApiTokens(ctx.db);
    },
  },

  Mutation: {
    createApiToken: async (_root, { input }, ctx) => {
      const admin = requireSignedInAdmin(ctx, 'API tokens');
      const name = tokenName(input.name);
      const { token, secret } = await inTransaction(ctx.db, async (trx) => {
        const active = (await listApiTokens(trx)).filter((t) => t.revokedAt === null);
        if (active.some((t) => t.name.toLowerCase() === name.toLowerCase())) {
          throw new ParleyError('INVALID_INPUT', 'A token that works already has this name.', {
            field: 'name',
          });
        }
        if (active.length >= API_TOKENS_MAX_ACTIVE) {
          throw new ParleyError(
            'INVALID_INPUT',
            `At most ${API_TOKENS_MAX_ACTIVE} tokens work at once: revoke one first.`,
            { field: 'name' },
          );
        }
        const created = await createApiToken(
          trx,
          { name, scope: input.scope, createdBy: admin.id, creatorEpoch: admin.sessionEpoch },
          ctx.now(),
        );
        await audit(ctx, trx, 'API_TOKEN_CREATE', tokenTarget(created.token), [
          { field: 'scope', before: null, after: created.token.scope },
        ]);
        return created;
      });
      const secrets = freshSecrets.get(ctx) ?? new Map<string, string>();
      secrets.set(token.id, secret);
      freshSecrets.set(ctx, secrets);
      return { apiToken: token };
    },

    revokeApiToken: async (_root, { input }, ctx) => {
      requireSignedInAdmin(ctx, 'API tokens');
      const apiToken = await inTransaction(ctx.db, async (trx) => {
        const before = await findApiToken(trx, input.tokenId);
        if (before === undefined) throw new ParleyError('NOT_FOUND', 'No such API token.');
        if (before.revokedAt !== null) return before;
        const revoked = (await revokeApiToken(trx, before.id, ctx.now())) ?? before;
        await audit(ctx, trx, 'API_TOKEN_REVOKE', tokenTarget(revoked), [
          { field: 'revokedAt', before: null, after: revoked.revokedAt },
        ]);
        return revoked;
      });
      return { apiToken };
    },
  },

  ApiToken: {
    secret: (token, _args, ctx) => freshSecrets.get(ctx)?.get(token.id) ?? null,
    createdBy: (token, _args, ctx) => ctx.loaders.user.load(token.createdBy),
  },
} satisfies Resolvers;
