/**
 * Sites: listed for moderators (the queue's site filter), created and changed by admins, and
 * their SSO signing keys rotated by admins.
 *
 * A key's secret is shown once: in the response of the mutation that created it. `Site.ssoKeys`
 * (resolvers/types.ts) reads keys from the database and blanks every secret, and must keep doing
 * so for every other response. So the mutation remembers the fresh key's secret against this
 * request's context (a WeakMap: nothing outlives the request), and `SsoKey.secret` — a field
 * nobody else resolves — answers it for that key id in that response only.
 */
import { inTransaction } from '../../../db/inTransaction';
import {
  createSite,
  findSiteById,
  listActiveSsoKeys,
  listSites,
  revokeSsoKey,
  rotateSsoKey,
  updateSite,
} from '../../../db/store/sites';
import { SSO_TOKEN_LIFETIME_CEILING_SECONDS } from '../../../defaults';
import { ParleyError } from '../../../ParleyError';
import type { ParleyContext } from '../../context';
import { requireRole } from '../../permissions';
import type { Resolvers } from '../resolverTypes.generated';
import { allowedOrigins, httpUrl, required } from '../../../validation/validateInput';
import { invalidateEveryRead } from '../../events';
import { REDACTED, diff } from '../../../db/store/auditLog';
import type { AuditTarget } from '../../../db/store/auditLog';
import type { Site } from '../../../db/store/sites';
import { audit } from '../../audit';

/** What the audit log compares of a site. */
const SITE_FIELDS = ['name', 'url', 'allowedOrigins', 'ssoTokenMaxLifetimeSeconds'] as const;

/** A site as an audit target. */
export function siteTarget(site: Site): AuditTarget {
  return { type: 'site', id: site.id, label: site.name };
}

/** Secrets of keys created during a request, by key id; see the file comment. */
const freshSecrets = new WeakMap<ParleyContext, Map<string, string>>();

function showOnce(ctx: ParleyContext, key: { id: string; secret: string }): void {
  const secrets = freshSecrets.get(ctx) ?? new Map<string, string>();
  secrets.set(key.id, key.secret);
  freshSecrets.set(ctx, secrets);
}

async function requireSite(ctx: ParleyContext, siteId: string) {
  const site = await findSiteById(ctx.db, siteId);
  if (site === undefined) throw new ParleyError('NOT_FOUND', `No site ${siteId}.`);
  return site;
}

/** Resolvers of sites and their keys. */
export const siteAdminResolvers = {
  Query: {
    sites: (_root, _args, ctx) => {
      requireRole(ctx, 'MODERATOR');
      return listSites(ctx.db);
    },
  },

  Mutation: {
    createSite: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const url = httpUrl(input.url, 'url');
      const fields = {
        name: required(input.name, 'name'),
        url,
        allowedOrigins: allowedOrigins(input.allowedOrigins, url, 'allowedOrigins'),
      };
      const { site, key } = await inTransaction(ctx.db, async (trx) => {
        const created = await createSite(trx, fields, ctx.box);
        await audit(ctx, trx, 'SITE_CREATE', siteTarget(created.site), [
          ...diff(undefined, created.site, SITE_FIELDS),
          { field: 'ssoKey', before: null, after: REDACTED },
        ]);
        return created;
      });
      // Every process (through Redis) forgets its permitted origins: the new ones apply at once.
      ctx.pubsub.publish('sitesChanged', { siteId: site.id });
      invalidateEveryRead(ctx);
      // A new site comes with its first key: its secret is shown now, like a rotated one.
      showOnce(ctx, key);
      return { site };
    },

    updateSite: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const current = await requireSite(ctx, input.siteId);
      const lifetime = input.ssoTokenMaxLifetimeSeconds;
      if (
        lifetime !== undefined &&
        lifetime !== null &&
        !(
          Number.isInteger(lifetime) &&
          lifetime >= 60 &&
          lifetime <= SSO_TOKEN_LIFETIME_CEILING_SECONDS
        )
      ) {
        throw new ParleyError(
          'INVALID_INPUT',
          `Between 60 seconds and ${SSO_TOKEN_LIFETIME_CEILING_SECONDS / 86_400} days.`,
          { field: 'ssoTokenMaxLifetimeSeconds' },
        );
      }
      const url =
        input.url === undefined || input.url === null ? undefined : httpUrl(input.url, 'url');
      const origins =
        input.allowedOrigins !== undefined && input.allowedOrigins !== null
          ? input.allowedOrigins
          : url !== undefined
            ? current.allowedOrigins
            : undefined;
      const patch = {
        ...(input.name === undefined || input.name === null
          ? {}
          : { name: required(input.name, 'name') }),
        ...(url === undefined ? {} : { url }),
        // null sets the default back; absent leaves it as it is.
        ...(lifetime === undefined ? {} : { ssoTokenMaxLifetimeSeconds: lifetime }),
        ...(origins === undefined
          ? {}
          : { allowedOrigins: allowedOrigins(origins, url ?? current.url, 'allowedOrigins') }),
      };
      const site = await inTransaction(ctx.db, async (trx) => {
        const updated = await updateSite(trx, input.siteId, patch);
        const changes = diff(current, updated, SITE_FIELDS);
        if (changes.length > 0) await audit(ctx, trx, 'SITE_UPDATE', siteTarget(updated), changes);
        return updated;
      });
      ctx.pubsub.publish('sitesChanged', { siteId: site.id });
      invalidateEveryRead(ctx);
      return { site };
    },

    rotateSsoKey: async (_root, { input }, ctx) => {
      requireRole(ctx, 'ADMIN');
      const site = await requireSite(ctx, input.siteId);
      const key = await inTransaction(ctx.db, async (trx) => {
        const old = await listActiveSsoKeys(trx, site.id);
        const created = await rotateSsoKey(trx, site.id, ctx.box);
        // Revoking is for a leaked secret: the overlap would keep the leak usable for days.
        if (input.revokeOld === true) for (const k of old) await revokeSsoKey(trx, k.id);
        await audit(ctx, trx, 'SSO_KEY_ROTATE', siteTarget(site), [
          { field: 'ssoKey', before: old.length > 0 ? REDACTED : null, after: REDACTED },
          { field: 'newKeyId', before: null, after: created.id },
          ...(input.revokeOld === true
            ? [{ field: 'revokedKeyIds', before: null, after: old.map((k) => k.id) }]
            : []),
        ]);
        return created;
      });
      showOnce(ctx, key);
      return { site };
    },
  },

  SsoKey: {
    // Never the parent's own `secret`: should a future resolver forget to blank it, the secret
    // still is not shown twice.
    secret: (key, _args, ctx) => freshSecrets.get(ctx)?.get(key.id) ?? null,
  },
} satisfies Resolvers;
