import type { SecretBox } from '../auth/secretBox';
import type { Settings } from '../db/store/organization';
import type { SmtpSettings } from './createMailer';

/** The SMTP part of the organization's settings, as the mailer takes it: the password opened. */
export function smtpSettingsOf(settings: Settings, box: SecretBox): SmtpSettings {
  return {
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecure,
    user: settings.smtpUser,
    password: box.open(settings.smtpPassword, 'settings.smtpPassword'),
    from: settings.smtpFrom,
  };
}
