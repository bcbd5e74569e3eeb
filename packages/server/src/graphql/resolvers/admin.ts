import { apiTokenAdminResolvers } from './admin/apiTokenAdmin';
import { auditLogResolvers } from './admin/auditLogQuery';
import { consoleActionResolvers } from './admin/consoleActions';
import { dashboardResolvers } from './admin/dashboard';
import { siteAdminResolvers } from './admin/siteAdmin';
import { storyAdminResolvers } from './admin/storyAdmin';
import { updateSettingsResolvers } from './admin/updateSettings';
import { webhookAdminResolvers } from './admin/webhookAdmin';
import type { Resolvers } from './resolverTypes.generated';

/**
 * Running the install: settings (ADMIN), sites and SSO keys (ADMIN; the list for moderators),
 * stories and the dashboard (MODERATOR and above), the audit log, API tokens and webhooks (ADMIN). Every resolver checks
 * the role itself.
 */
export const adminResolvers = {
  Query: {
    ...siteAdminResolvers.Query,
    ...storyAdminResolvers.Query,
    ...dashboardResolvers.Query,
    ...auditLogResolvers.Query,
    ...apiTokenAdminResolvers.Query,
    ...webhookAdminResolvers.Query,
  },
  Mutation: {
    ...updateSettingsResolvers.Mutation,
    ...siteAdminResolvers.Mutation,
    ...storyAdminResolvers.Mutation,
    ...consoleActionResolvers.Mutation,
    ...apiTokenAdminResolvers.Mutation,
    ...webhookAdminResolvers.Mutation,
  },
  ApiToken: apiTokenAdminResolvers.ApiToken,
  Webhook: webhookAdminResolvers.Webhook,
  SsoKey: siteAdminResolvers.SsoKey,
  Story: consoleActionResolvers.Story,
  AuditEntry: auditLogResolvers.AuditEntry,
} satisfies Resolvers;
