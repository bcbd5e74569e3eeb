import type { PremodMode } from '../stories/storiesQueries';

/** The organization's settings as the configure pages read them. */
export interface ConsoleSettings {
  guidelines: string;
  guidelinesHtml: string;
  maxCommentLength: number;
  editWindowSeconds: number;
  closeAfterDays: number;
  reactionLabel: string;
  featuredTab: boolean;
  locale: string;
  premod: PremodMode;
  newCommenterApprovals: number;
  reportThreshold: number;
  bannedWords: string[] | null;
  suspectWords: string[] | null;
  liveUpdates: boolean;
  signUpOpen: boolean;
  sessionSeconds: number;
  customCssUrl: string;
  /** The SMTP fields are null unless the viewer is an admin. */
  smtpHost: string | null;
  smtpPort: number | null;
  smtpSecure: boolean | null;
  smtpUser: string | null;
  /** Whether a password is stored; the API never returns the password itself. */
  smtpPasswordSet: boolean | null;
  smtpFrom: string | null;
  /** Whether `SMTP_URL` in the server's environment overrides the SMTP fields. */
  smtpFromEnvironment: boolean | null;
  organization: { name: string; contactEmail: string; url: string; locale: string } | null;
}

/** `UpdateSettingsInput`: each section sends only its own fields. */
export type SettingsInput = Partial<
  Omit<
    ConsoleSettings,
    | 'guidelinesHtml'
    | 'organization'
    | 'bannedWords'
    | 'suspectWords'
    | 'smtpPasswordSet'
    | 'smtpFromEnvironment'
  >
> & {
  /** Write-only; empty keeps the stored password. */
  smtpPassword?: string;
  bannedWords?: string[];
  suspectWords?: string[];
  organization?: { name: string; contactEmail: string; url: string };
};

const SETTINGS_FIELDS = `guidelines guidelinesHtml maxCommentLength editWindowSeconds closeAfterDays
  reactionLabel featuredTab locale premod newCommenterApprovals reportThreshold bannedWords
  suspectWords liveUpdates signUpOpen sessionSeconds customCssUrl
  smtpHost smtpPort smtpSecure smtpUser smtpPasswordSet smtpFrom smtpFromEnvironment
  organization { name contactEmail url locale }`;

/** Every setting the configure pages edit. */
export const SETTINGS_QUERY = `query ConsoleSettings { settings { ${SETTINGS_FIELDS} } }`;

/** Saves a partial settings update; answers the stored settings. */
export const UPDATE_SETTINGS_MUTATION = `mutation ConsoleUpdateSettings($input: UpdateSettingsInput!) {
  updateSettings(input: $input) { settings { ${SETTINGS_FIELDS} } }
}`;

/** The guidelines' preview, rendered by the server as the widget will show them. */
export const RENDER_MARKDOWN_QUERY = `query ConsoleRenderMarkdown($body: String!) {
  renderMarkdown(body: $body)
}`;

/** An SSO signing key; `secret` is non-null only in the answer that created it. */
export interface SsoKey {
  id: string;
  secret: string | null;
  createdAt: string;
  expiresAt: string | null;
  revoked: boolean;
}

/** A site as its settings page shows it. */
export interface AdminSite {
  id: string;
  name: string;
  url: string;
  allowedOrigins: string[];
  embedSnippet: string;
  ssoKeys: SsoKey[] | null;
  /** Longest SSO token life accepted, in seconds; null for the server's default (24 hours). */
  ssoTokenMaxLifetimeSeconds: number | null;
}

const SITE_FIELDS =
  'id name url allowedOrigins embedSnippet ssoTokenMaxLifetimeSeconds ssoKeys { id secret createdAt expiresAt revoked }';

/** Every site with its keys (admins see keys). */
export const ADMIN_SITES_QUERY = `query ConsoleAdminSites { sites { ${SITE_FIELDS} } }`;

/** Adds a site (with its first SSO key, whose secret this answer shows once). */
export const CREATE_SITE_MUTATION = `mutation ConsoleCreateSite($input: CreateSiteInput!) {
  createSite(input: $input) { site { ${SITE_FIELDS} } }
}`;

/** Changes a site's name, URL or permitted origins. */
export const UPDATE_SITE_MUTATION = `mutation ConsoleUpdateSite($input: UpdateSiteInput!) {
  updateSite(input: $input) { site { ${SITE_FIELDS} } }
}`;

/** Generates a new current key; the old one keeps verifying for the overlap unless revoked. */
export const ROTATE_KEY_MUTATION = `mutation ConsoleRotateSsoKey($input: RotateSsoKeyInput!) {
  rotateSsoKey(input: $input) { site { ${SITE_FIELDS} } }
}`;

/** Revokes one key at once. */
export const REVOKE_KEY_MUTATION = `mutation ConsoleRevokeSsoKey($input: RevokeSsoKeyInput!) {
  revokeSsoKey(input: $input) { site { ${SITE_FIELDS} } }
}`;

/** Emails the signed-in admin through the server's mail transport. */
export const SEND_TEST_EMAIL_MUTATION = 'mutation ConsoleSendTestEmail { sendTestEmail { ok } }';

/** One entry per non-blank line, trimmed: the word lists and the permitted origins. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
