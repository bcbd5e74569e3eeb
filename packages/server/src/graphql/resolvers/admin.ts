import { apiTokenAdminResolvers } from './admin/apiTokenAdmin';
import { auditLogResolvers } from './admin/auditLogQuery';
import { consoleActionResolvers } from './admin/consoleActions';
import { dashboardResolvers } from './admin/dashboard';
import { siteAdminResolvers } from './admin/siteAdmin';
import { storyAdminResolvers } from './admin/storyAdmin';
import { updateSettingsResolvers } from './admin/updateSettings';
import type { Resolvers } from './resolverTypes.generated';

/**
 * Running the install: settings (ADMIN), sites and SSO keys (ADMIN; the list for moderators),
 * stories and the dashboard (MODERATOR and above), the audit log and API tokens (ADMIN). Every resolver checks
 * the role itself.
 */
export const adminResolvers = {
  Query: {
    ...siteAdminResolvers.Query,
    ...storyAdminResolvers.Query,
    ...dashboardResolvers.Query,
    ...auditLogResolvers.Query,
    ...apiTokenAdminResolvers.Query,
  },
  Mutation: {
    ...updateSettingsResolvers.Mutation,
    ...siteAdminResolvers.Mutation,
    ...storyAdminResolvers.Mutation,
    ...consoleActionResolvers.Mutation,
    ...apiTokenAdminResolvers.Mutation,
  },
  ApiToken: apiTokenAdminResolvers.ApiToken,
  SsoKey: siteAdminResolvers.SsoKey,
  Story: consoleActionResolvers.Story,
  AuditEntry: auditLogResolvers.AuditEntry,
} satisfies Resolvers;
