import type { Settings } from '../db/store/organization';
import type { SmtpSettings } from './createMailer';

/** The SMTP part of the organization's settings, as the mailer takes it. */
export function smtpSettingsOf(settings: Settings): SmtpSettings {
  return {
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecure,
    user: settings.smtpUser,
    password: settings.smtpPassword,
    from: settings.smtpFrom,
  };
}
