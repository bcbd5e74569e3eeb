import { GUIDELINES_MAX_LENGTH, REACTION_LABEL_MAX_LENGTH } from '@parley/contract';
/**
 * `updateSettings` (ADMIN): a partial update of the organization's settings and identity. Every
 * field is validated before anything is written, and both writes share one transaction, so a bad
 * field leaves the stored settings exactly as they were.
 */
import { inTransaction } from '../../../db/inTransaction';
import {
  getOrganization,
  updateOrganization,
  updateSettings,
} from '../../../db/store/organization';
import type { Organization, Settings } from '../../../db/store/organization';
import { isIP } from 'node:net';
import { ParleyError } from '../../../ParleyError';
import { validateEmail } from '../../../validation/validateAccount';
import { requireRole } from '../../permissions';
import { requireTokenMaySet } from '../../apiTokenAccess';
import type { OrganizationInput, Resolvers, UpdateSettingsInput } from '../resolverTypes.generated';
import { httpUrl, required } from '../../../validation/validateInput';
import { invalidateEveryRead, organizationChanged } from '../../events';
import { diff } from '../../../db/store/auditLog';
import { audit } from '../../audit';

/** Bounds of the numeric settings, inclusive; a value outside is `INVALID_INPUT` on its field. */
export const SETTING_RANGES = Object.freeze({
  newCommenterApprovals: { min: 0, max: 100 },
  reportThreshold: { min: 1, max: 1000 },
  editWindowSeconds: { min: 0, max: 86_400 },
  maxCommentLength: { min: 1, max: 20_000 },
  closeAfterDays: { min: 0, max: 36_500 },
  // Five minutes at least: a shorter session would sign moderators out mid-queue.
  sessionSeconds: { min: 300, max: 31_536_000 },
  smtpPort: { min: 1, max: 65_535 },
  // A month at least: long enough to look back on an incident noticed late.
  auditRetentionDays: { min: 30, max: 3650 },
  // Below one in two, the filter would hold what it thinks is more likely fine than not.
  spamThreshold: { min: 50, max: 99 },
  ipRetentionDays: { min: 1, max: 365 },
});

/** Longest SMTP user name or password, in characters. */
export const SMTP_CREDENTIAL_MAX_LENGTH = 500;

/** A DNS host name (letters, digits, hyphens; dot-separated labels of up to 63 characters). */
const HOST_NAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Trimmed, lower-cased (the filters match case-insensitively), without blanks or repeats. */
export function normalizeWords(words: readonly string[]): string[] {
  return [...new Set(words.map((w) => w.trim().toLowerCase()).filter((w) => w !== ''))];
}

function inRange(value: number, field: keyof typeof SETTING_RANGES): number {
  const { min, max } = SETTING_RANGES[field];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ParleyError('INVALID_INPUT', `Expected a whole number from ${min} to ${max}.`, {
      field,
    });
  }
  return value;
}

function locale(value: string, field: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(value.trim());
    if (canonical !== undefined) return canonical;
  } catch {
    // fall through to the coded error
  }
  throw new ParleyError('INVALID_INPUT', 'Expected a language tag such as “en” or “pt-BR”.', {
    field,
  });
}

/**
 * The custom stylesheet: empty (none) or an https URL. Plain http is refused because the stream
 * is usually framed into https pages, where a mixed-content stylesheet is blocked anyway.
 */
function stylesheetUrl(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') return '';
  const url = httpUrl(trimmed, 'customCssUrl');
  if (!url.startsWith('https:')) {
    throw new ParleyError('INVALID_INPUT', 'Expected an https URL.', { field: 'customCssUrl' });
  }
  return url;
}

/** The SMTP host: empty (none) or a host name or IP address, without scheme or port. */
function smtpHost(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || isIP(trimmed) !== 0 || HOST_NAME_PATTERN.test(trimmed)) return trimmed;
  throw new ParleyError(
    'INVALID_INPUT',
    `Expected a host name such as “smtp.example.com”; got “${trimmed}”.`,
    { field: 'smtpHost' },
  );
}

function credential(value: string, field: 'smtpUser' | 'smtpPassword'): string {
  if (value.length > SMTP_CREDENTIAL_MAX_LENGTH) {
    throw new ParleyError('INVALID_INPUT', `At most ${SMTP_CREDENTIAL_MAX_LENGTH} characters.`, {
      field,
    });
  }
  return value;
}

/** The SMTP part of the patch; the password is write-only, and empty keeps the stored one. */
function smtpPatch(input: UpdateSettingsInput): Partial<Settings> {
  const patch: Partial<Settings> = {};
  if (input.smtpHost !== undefined && input.smtpHost !== null) {
    patch.smtpHost = smtpHost(input.smtpHost);
  }
  if (input.smtpSecure !== undefined && input.smtpSecure !== null) {
    patch.smtpSecure = input.smtpSecure;
  }
  if (input.smtpUser !== undefined && input.smtpUser !== null) {
    patch.smtpUser = credential(input.smtpUser.trim(), 'smtpUser');
  }
  // Not trimmed: a password may end in a space. Empty means "keep", since the form never sees it.
  if (
    input.smtpPassword !== undefined &&
    input.smtpPassword !== null &&
    input.smtpPassword !== ''
  ) {
    patch.smtpPassword = credential(input.smtpPassword, 'smtpPassword');
  }
  // Without a user there is no authentication, so a stored password would only linger.
  if (patch.smtpUser === '') patch.smtpPassword = '';
  if (input.smtpFrom !== undefined && input.smtpFrom !== null) {
    const trimmed = input.smtpFrom.trim();
    patch.smtpFrom = trimmed === '' ? '' : validateEmail(trimmed, 'smtpFrom').address;
  }
  return patch;
}

/** The settings patch `input` asks for, validated and normalized. */
export function settingsPatch(input: UpdateSettingsInput): Partial<Settings> {
  const patch: Partial<Settings> = smtpPatch(input);
  for (const field of Object.keys(SETTING_RANGES) as (keyof typeof SETTING_RANGES)[]) {
    const value = input[field];
    if (value !== undefined && value !== null) patch[field] = inRange(value, field);
  }
  for (const field of [
    'signUpOpen',
    'anonymousReading',
    'liveUpdates',
    'featuredTab',
    'commentImages',
    'guestComments',
    'guestPremod',
    'spamFilter',
    'requireStaffTwoFactor',
    'webhooksAllowPrivateAddresses',
  ] as const) {
    const value = input[field];
    if (value !== undefined && value !== null) patch[field] = value;
  }
  if (input.premod !== undefined && input.premod !== null) patch.premod = input.premod;
  if (input.voting !== undefined && input.voting !== null) patch.voting = input.voting;
  if (input.bannedWords !== undefined && input.bannedWords !== null) {
    patch.bannedWords = normalizeWords(input.bannedWords);
  }
  if (input.suspectWords !== undefined && input.suspectWords !== null) {
    patch.suspectWords = normalizeWords(input.suspectWords);
  }
  if (input.guidelines !== undefined && input.guidelines !== null) {
    if (input.guidelines.length > GUIDELINES_MAX_LENGTH) {
      throw new ParleyError('INVALID_INPUT', `At most ${GUIDELINES_MAX_LENGTH} characters.`, {
        field: 'guidelines',
      });
    }
    patch.guidelines = input.guidelines;
  }
  if (input.reactionLabel !== undefined && input.reactionLabel !== null) {
    // Empty goes back to the stream's own words, in the reader's language.
    const label = input.reactionLabel.trim();
    if (label.length > REACTION_LABEL_MAX_LENGTH) {
      throw new ParleyError('INVALID_INPUT', `At most ${REACTION_LABEL_MAX_LENGTH} characters.`, {
        field: 'reactionLabel',
      });
    }
    patch.reactionLabel = label;
  }
  if (input.customCssUrl !== undefined && input.customCssUrl !== null) {
    patch.customCssUrl = stylesheetUrl(input.customCssUrl);
  }
  if (input.locale !== undefined && input.locale !== null) {
    // Empty: no language for the whole site; each thread follows its page's `lang`.
    patch.locale = input.locale.trim() === '' ? '' : locale(input.locale, 'locale');
  }
  return patch;
}

function organizationPatch(input: OrganizationInput) {
  return {
    name: required(input.name, 'organization.name'),
    contactEmail: validateEmail(input.contactEmail, 'organization.contactEmail').address,
    url: httpUrl(input.url, 'organization.url'),
    ...(input.locale === undefined || input.locale === null
      ? {}
      : { locale: locale(input.locale, 'organization.locale') }),
  };
}

/** What the `Settings` type's resolvers receive: the settings with the organization beside them. */
export type SettingsView = Settings & {
  /** Undefined before install. */
  organization: Organization | undefined;
  /** Whether the install wizard has run. */
  installed: boolean;
};

/** The settings as `Query.settings` and `updateSettings` answer them. */
export function settingsView(
  settings: Settings,
  organization: Organization | undefined,
): SettingsView {
  return { ...settings, organization, installed: organization !== undefined };
}

/** Resolver of `updateSettings`. */
export const updateSettingsResolvers = {
  Mutation: {
    updateSettings: async (_root, { input }, ctx) => {
      const admin = requireRole(ctx, 'ADMIN');
      requireTokenMaySet(ctx.apiToken, input);
      const patch = settingsPatch(input);
      // Whoever requires two-factor sign-in of staff uses it: else the save would lock its own
      // author out of the console until they set it up.
      if (patch.requireStaffTwoFactor === true && !admin.twoFactorEnabled) {
        throw new ParleyError(
          'TWO_FACTOR_ENROLMENT_REQUIRED',
          'Set up two-factor sign-in for your own account before requiring it of all staff.',
          { field: 'requireStaffTwoFactor' },
        );
      }
      // The stored password goes only to the server it was given for: a new host or user without
      // a new password drops it (else an admin could point the host at their own server and read
      // the write-only password from the test email's login).
      const current = await ctx.settings();
      const moved =
        (patch.smtpHost !== undefined && patch.smtpHost !== current.smtpHost) ||
        (patch.smtpUser !== undefined && patch.smtpUser !== current.smtpUser);
      if (moved && patch.smtpPassword === undefined) patch.smtpPassword = '';
      // Stored sealed (auth/secretBox.ts); '' (none) stays ''.
      if (patch.smtpPassword !== undefined) {
        patch.smtpPassword = ctx.box.seal(patch.smtpPassword, 'settings.smtpPassword');
      }
      const orgPatch = input.organization ? organizationPatch(input.organization) : undefined;
      const { settings, organization } = await inTransaction(ctx.db, async (trx) => {
        const before = await getOrganization(trx);
        const saved = {
          organization: orgPatch
            ? await updateOrganization(trx, orgPatch)
            : await getOrganization(trx),
          settings: await updateSettings(trx, patch),
        };
        const changes = [
          ...diff(
            before?.settings,
            saved.settings,
            Object.keys(saved.settings) as (keyof Settings)[],
            ['smtpPassword'],
          ),
          ...(saved.organization === undefined
            ? []
            : diff(before, saved.organization, ['name', 'contactEmail', 'url', 'locale'])
          ).map((change) => ({ ...change, field: `organization.${change.field}` })),
        ];
        if (changes.length > 0) {
          const label = saved.organization?.name ?? 'Parley';
          await audit(ctx, trx, 'SETTINGS_UPDATE', { type: 'settings', id: null, label }, changes);
        }
        return saved;
      });
      organizationChanged(ctx);
      invalidateEveryRead(ctx);
      // Not ctx.settings()/ctx.organization(): they were read once for this request, before
      // the change; the payload must show what is stored now.
      return { settings: settingsView(settings, organization) };
    },
  },
} satisfies Resolvers;
