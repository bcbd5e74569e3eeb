import { useState } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
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
  return (
    <div>
      <h2 id="email-smtp-title">Mail server</h2>
      {fromEnvironment && (
        <p role="note" className="hint">
          The server’s <code>SMTP_URL</code> environment setting is set: it overrides these
          settings. Remove it from the environment and restart to use them.
        </p>
      )}
      <form onSubmit={form.submit} noValidate aria-labelledby="email-smtp-title">
        {/* A disabled fieldset disables every control in it, the Save button included. */}
        <fieldset disabled={fromEnvironment}>
          <TextField
            form={form}
            name="smtpHost"
            label="Host"
            placeholder="smtp.example.com"
            autoComplete="off"
            hint="Leave empty to write messages to the outbox folder of the data directory."
          />
          <TextField
            form={form}
            name="smtpPort"
            label="Port"
            type="number"
            min={1}
            max={65535}
            hint="587 for STARTTLS, 465 for TLS."
          />
          <CheckboxField
            form={form}
            name="smtpSecure"
            label="Use TLS"
            hint="TLS from the start (usually port 465). Off still upgrades with STARTTLS when the server offers it."
          />
          <TextField form={form} name="smtpUser" label="Username" autoComplete="off" />
          <TextField
            form={form}
            name="smtpPassword"
            label="Password"
            type="password"
            autoComplete="new-password"
            hint={
              form.values.smtpPasswordSet
                ? 'A password is set. Leave empty to keep it.'
                : 'No password is set.'
            }
          />
          <TextField
            form={form}
            name="smtpFrom"
            label="From address"
            type="email"
            placeholder="no-reply@example.com"
            hint="The sender of every email. Leave empty for no-reply at the server’s host name."
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

  async function onSend() {
    setResult(null);
    const answer = await send({}, { clientMutationId: false });
    setResult(
      answer.error
        ? { ok: false, text: errorText(toTransportError(answer.error).code) }
        : { ok: true, text: `Sent to ${viewer.email ?? 'your address'}. Check the inbox.` },
    );
  }

  return (
    <>
      <h2>Test email</h2>
      <p>
        Sends a short message to {viewer.email ?? 'your account’s address'} with the saved settings.
      </p>
      <button type="button" onClick={() => void onSend()} disabled={state.fetching}>
        Send test email
      </button>
      {/* One polite region for both outcomes, so the result is announced either way. */}
      <p aria-live="polite" className={result?.ok === false ? 'field-error' : 'success'}>
        {result?.text}
      </p>
    </>
  );
}
