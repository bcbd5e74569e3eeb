/**
 * Configure's GraphQL documents. The settings and the site fragments are here rather than beside
 * one component: every section reads the settings and saves through useSettingsForm, and the
 * sites table, SiteEditor and SsoKeys all read a site, so the documents that answer them share
 * one selection each.
 */
import { graphql } from '@parley/transport/graphql';
import type { ResultOf, VariablesOf } from '@parley/transport/graphql';

/** Every setting the configure sections edit. */
export const SettingsFields = graphql(`
  fragment SettingsFields on Settings {
    guidelines guidelinesHtml maxCommentLength editWindowSeconds closeAfterDays reactionLabel
    featuredTab voting commentImages guestComments guestPremod spamFilter spamThreshold locale premod newCommenterApprovals reportThreshold bannedWords suspectWords
    liveUpdates signUpOpen sessionSeconds customCssUrl smtpHost smtpPort smtpSecure smtpUser
    smtpPasswordSet smtpFrom smtpFromEnvironment requireStaffTwoFactor auditRetentionDays ipRetentionDays
    webhooksAllowPrivateAddresses
    organization { name contactEmail url locale }
  }
`);

/**
 * The organization's settings as the configure pages read them. The SMTP fields are null unless
 * the viewer is an admin; `smtpPasswordSet` says whether a password is stored (the API never
 * returns the password itself); `smtpFromEnvironment`, whether `SMTP_URL` in the server's
 * environment overrides the SMTP fields.
 */
export type ConsoleSettings = ResultOf<typeof SettingsFields>;

/** Every setting the configure pages edit. */
export const SETTINGS_QUERY = graphql(`query ConsoleSettings { settings { ...SettingsFields } }`, [
  SettingsFields,
]);

/** Saves a partial settings update; answers the stored settings. */
export const UPDATE_SETTINGS_MUTATION = graphql(
  `
    mutation ConsoleUpdateSettings($input: UpdateSettingsInput!) {
      updateSettings(input: $input) { settings { ...SettingsFields } }
    }
  `,
  [SettingsFields],
);

/** `UpdateSettingsInput`: each section sends only its own fields. */
export type SettingsInput = VariablesOf<typeof UPDATE_SETTINGS_MUTATION>['input'];

/** The guidelines' preview, rendered by the server as the widget will show them. */
export const RENDER_MARKDOWN_QUERY = graphql(
  `query ConsoleRenderMarkdown($body: String!) { renderMarkdown(body: $body) }`,
);

/** A site as its settings page shows it. */
export const AdminSiteFields = graphql(`
  fragment AdminSiteFields on Site {
    id name url allowedOrigins embedSnippet recentSnippet ssoTokenMaxLifetimeSeconds
    ssoKeys { id secret createdAt expiresAt revoked }
  }
`);

/**
 * A site as its settings page shows it. `ssoTokenMaxLifetimeSeconds` is the longest SSO token
 * life accepted, null for the server's default (24 hours).
 */
export type AdminSite = ResultOf<typeof AdminSiteFields>;

/** An SSO signing key; `secret` is non-null only in the answer that created it. */
export type SsoKey = NonNullable<AdminSite['ssoKeys']>[number];

/** Every site with its keys (admins see keys). */
export const ADMIN_SITES_QUERY = graphql(
  `query ConsoleAdminSites { sites { ...AdminSiteFields } }`,
  [AdminSiteFields],
);

/** Adds a site (with its first SSO key, whose secret this answer shows once). */
export const CREATE_SITE_MUTATION = graphql(
  `
    mutation ConsoleCreateSite($input: CreateSiteInput!) {
      createSite(input: $input) { site { ...AdminSiteFields } }
    }
  `,
  [AdminSiteFields],
);

/** Changes a site's name, URL or permitted origins. */
export const UPDATE_SITE_MUTATION = graphql(
  `
    mutation ConsoleUpdateSite($input: UpdateSiteInput!) {
      updateSite(input: $input) { site { ...AdminSiteFields } }
    }
  `,
  [AdminSiteFields],
);

/** Generates a new current key; the old one keeps verifying for the overlap unless revoked. */
export const ROTATE_KEY_MUTATION = graphql(
  `
    mutation ConsoleRotateSsoKey($input: RotateSsoKeyInput!) {
      rotateSsoKey(input: $input) { site { ...AdminSiteFields } }
    }
  `,
  [AdminSiteFields],
);

/** Revokes one key at once. */
export const REVOKE_KEY_MUTATION = graphql(
  `
    mutation ConsoleRevokeSsoKey($input: RevokeSsoKeyInput!) {
      revokeSsoKey(input: $input) { site { ...AdminSiteFields } }
    }
  `,
  [AdminSiteFields],
);

/** Emails the signed-in admin through the server's mail transport. */
export const SEND_TEST_EMAIL_MUTATION = graphql(
  `mutation ConsoleSendTestEmail { sendTestEmail { ok } }`,
);

/** One entry per non-blank line, trimmed: the word lists and the permitted origins. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
