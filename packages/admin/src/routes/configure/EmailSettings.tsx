import { useState } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { useViewer } from '../../Viewer';
import { SEND_TEST_EMAIL_MUTATION } from './configureQueries';
import type { ConsoleSettings } from './configureQueries';
import { CheckboxField, FormFooter, TextField } from './SettingsFields';
import { useSettingsForm, wholeNumber } from './useSettingsForm';

/** The SMTP port shown before one is stored: submission with STARTTLS. */
const DEFAULT_SMTP_PORT = 587;

/** The Email section's draft; the port is kept as the text typed. */
export interface EmailValues {
  smtpHost: string;
  smtpPort: string;
  smtpSecure: boolean;
  smtpUser: string;
  /** A new password; empty keeps the stored one (the API never returns it). */
  smtpPassword: string;
  smtpFrom: string;
  /** Whether a password is stored (read-only; follows the saved answer for the hint). */
  smtpPasswordSet: boolean;
}

function fromSettings(s: ConsoleSettings): EmailValues {
  return {
    smtpHost: s.smtpHost ?? '',
    smtpPort: String(s.smtpPort ?? DEFAULT_SMTP_PORT),
    smtpSecure: s.smtpSecure ?? false,
    smtpUser: s.smtpUser ?? '',
    smtpPassword: '',
    smtpFrom: s.smtpFrom ?? '',
    smtpPasswordSet: s.smtpPasswordSet ?? false,
  };
}

function toInput(v: EmailValues) {
  return {
    smtpHost: v.smtpHost.trim(),
    smtpPort: wholeNumber(v.smtpPort, 'smtpPort'),
    smtpSecure: v.smtpSecure,
    smtpUser: v.smtpUser.trim(),
    // Sent only when typed: an empty field means "keep the stored password".
    ...(v.smtpPassword === '' ? {} : { smtpPassword: v.smtpPassword }),
    smtpFrom: v.smtpFrom.trim(),
  };
}

/**
 * Configure › Email: the SMTP server Parley sends through, and a test email to the signed-in
 * admin. `SMTP_URL` in the server's environment overrides these settings; the page then shows
 * them read-only. Without either, messages go to the data folder's `outbox`.
 */
export function EmailSettings({ settings }: { settings: ConsoleSettings }) {
  const form = useSettingsForm({ settings, fromSettings, toInput });
  const fromEnvironment = settings.smtpFromEnvironment === true;
  const t = useT();
  return (
    <div>
      <h2 id="email-smtp-title">{t('console.configure.email.smtpTitle')}</h2>
      {fromEnvironment && (
        <p role="note" className="hint">
          {t('console.configure.email.fromEnvironment.before')}
          <code>SMTP_URL</code>
          {t('console.configure.email.fromEnvironment.after')}
        </p>
      )}
      <form onSubmit={form.submit} noValidate aria-labelledby="email-smtp-title">
        {/* A disabled fieldset disables every control in it, the Save button included. */}
        <fieldset disabled={fromEnvironment}>
          <TextField
            form={form}
            name="smtpHost"
            label={t('console.configure.email.host')}
            placeholder="smtp.example.com"
            autoComplete="off"
            hint={t('console.configure.email.hostHint')}
          />
          <TextField
            form={form}
            name="smtpPort"
            label={t('console.configure.email.port')}
            type="number"
            min={1}
            max={65535}
            hint={t('console.configure.email.portHint')}
          />
          <CheckboxField
            form={form}
            name="smtpSecure"
            label={t('console.configure.email.secure')}
            hint={t('console.configure.email.secureHint')}
          />
          <TextField
            form={form}
            name="smtpUser"
            label={t('console.configure.email.user')}
            autoComplete="off"
          />
          <TextField
            form={form}
            name="smtpPassword"
            label={t('console.configure.email.password')}
            type="password"
            autoComplete="new-password"
            hint={
              form.values.smtpPasswordSet
                ? t('console.configure.email.passwordSet')
                : t('console.configure.email.passwordNotSet')
            }
          />
          <TextField
            form={form}
            name="smtpFrom"
            label={t('console.configure.email.from')}
            type="email"
            placeholder="no-reply@example.com"
            hint={t('console.configure.email.fromHint')}
          />
          <FormFooter form={form} />
        </fieldset>
      </form>
      <TestEmail />
    </div>
  );
}

/** "Send test email": checks delivery with the saved settings by emailing the signed-in admin. */
function TestEmail() {
  const viewer = useViewer();
  const [state, send] = useMutation(SEND_TEST_EMAIL_MUTATION);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const t = useT();
  const errorText = useErrorText();

  async function onSend() {
    setResult(null);
    const answer = await send({}, { clientMutationId: false });
    setResult(
      answer.error
        ? { ok: false, text: errorText(toTransportError(answer.error).code) }
        : {
            ok: true,
            text:
              viewer.email != null
                ? t('console.configure.email.testSent', { email: viewer.email })
                : t('console.configure.email.testSentNoEmail'),
          },
    );
  }

  return (
    <>
      <h2>{t('console.configure.email.testTitle')}</h2>
      <p>
        {viewer.email != null
          ? t('console.configure.email.testIntro', { email: viewer.email })
          : t('console.configure.email.testIntroNoEmail')}
      </p>
      <button type="button" onClick={() => void onSend()} disabled={state.fetching}>
        {t('console.configure.email.testSend')}
      </button>
      {/* One polite region for both outcomes, so the result is announced either way. */}
      <p aria-live="polite" className={result?.ok === false ? 'field-error' : 'success'}>
        {result?.text}
      </p>
    </>
  );
}
