import { useState } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
import { useViewer } from '../../Viewer';
import { SEND_TEST_EMAIL_MUTATION } from './configureQueries';

/**
 * Configure › Email. The mail transport is server configuration (`SMTP_URL`, read at start), not
 * a stored setting: SMTP credentials stay out of the database and its backups. This page checks
 * that delivery works by emailing the signed-in admin.
 */
export function EmailSettings() {
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
    <div>
      <h2>Mail server</h2>
      <p>
        Parley sends mail through the SMTP server in the <code>SMTP_URL</code> setting of the server
        (for example <code>smtps://user:password@mail.example.com:465</code>). Without it, messages
        are written to the <code>outbox</code> folder of the data directory and logged. Change it in
        the server’s environment and restart.
      </p>
      <h2>Test email</h2>
      <p>Sends a short message to {viewer.email ?? 'your account’s address'}.</p>
      <button type="button" onClick={() => void onSend()} disabled={state.fetching}>
        Send test email
      </button>
      {/* One polite region for both outcomes, so the result is announced either way. */}
      <p aria-live="polite" className={result?.ok === false ? 'field-error' : 'success'}>
        {result?.text}
      </p>
    </div>
  );
}
