import { hashPassword } from '../auth/passwords';
import type { InstallInput } from '../db/store/organization';
import { normalizeOrigin } from '../db/store/sites';
import { ParleyError } from '../ParleyError';
import { validateEmail, validatePassword, validateUsername } from './validateAccount';

/** What the install wizard (the `install` mutation) and `parley install` are given. */
export interface InstallRequest {
  organization: {
    name: string;
    contactEmail: string;
    url: string;
    locale?: string | null;
  };
  site: { name: string; url: string; allowedOrigins: readonly string[] };
  admin: { email: string; username: string; password: string };
}

/**
 * Checks an install request field by field (`INVALID_INPUT` naming the field, as the wizard shows
 * it) and returns what {@link install} stores, the password hashed.
 */
export async function prepareInstall(request: InstallRequest): Promise<InstallInput> {
  const { organization, site, admin } = request;
  const name = required(organization.name, 'organization.name');
  const contactEmail = validateEmail(organization.contactEmail, 'organization.contactEmail');
  const orgUrl = httpUrl(organization.url, 'organization.url');
  const siteName = required(site.name, 'site.name');
  const siteUrl = httpUrl(site.url, 'site.url');
  const allowedOrigins = origins(site.allowedOrigins, siteUrl);
  const email = validateEmail(admin.email, 'admin.email');
  const username = validateUsername(admin.username, 'admin.username');
  validatePassword(admin.password, 'admin.password');
  return {
    organization: {
      name,
      contactEmail: contactEmail.address,
      url: orgUrl,
      locale: organization.locale ?? undefined,
    },
    site: { name: siteName, url: siteUrl, allowedOrigins },
    admin: { email: email.address, username, passwordHash: await hashPassword(admin.password) },
  };
}

function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new ParleyError('INVALID_INPUT', 'This field is required.', { field });
  return trimmed;
}

function httpUrl(value: string, field: string): string {
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through to the coded error
  }
  throw new ParleyError('INVALID_INPUT', 'Expected an http(s) URL.', { field });
}

/** The permitted origins, normalized; the site's own origin is always one of them. */
function origins(values: readonly string[], siteUrl: string): string[] {
  const list = [...values, siteUrl].map((value, i) => {
    try {
      return normalizeOrigin(value.trim());
    } catch {
      throw new ParleyError('INVALID_INPUT', `“${value}” is not an origin.`, {
        field: `site.allowedOrigins.${i}`,
      });
    }
  });
  return [...new Set(list)];
}
