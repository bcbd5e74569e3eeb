import { hashPassword } from '../auth/passwords';
import type { InstallInput } from '../db/store/organization';
import { validateEmail, validatePassword, validateUsername } from './validateAccount';
import { allowedOrigins as checkOrigins, httpUrl, required } from './validateInput';

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
  const allowedOrigins = checkOrigins(site.allowedOrigins, siteUrl, 'site.allowedOrigins');
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
