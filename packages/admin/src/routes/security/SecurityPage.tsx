import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorCodeOf } from '../../errorCodeOf';
import { errorText } from '../../errorText';
import { Field } from '../../Field';
import { Loading } from '../../Loading';

/** The signed-in staff member's two-factor state and signed-in devices. */
export const SECURITY_QUERY = graphql(`
  query ConsoleSecurity {
    viewer {
      id twoFactorEnabled recoveryCodesLeft staffAccess
      sessions { id device createdAt lastUsedAt current secondFactor }
    }
  }
`);

export const START_ENROLMENT_MUTATION = graphql(`
  mutation ConsoleStartTwoFactor($input: StartTwoFactorInput!) {
    startTwoFactorEnrolment(input: $input) { secret uri qrSvg }
  }
`);

export const CONFIRM_ENROLMENT_MUTATION = graphql(`
  mutation ConsoleConfirmTwoFactor($input: TwoFactorCodeInput!) {
    confirmTwoFactorEnrolment(input: $input) { recoveryCodes token }
  }
`);

export const REGENERATE_CODES_MUTATION = graphql(`
  mutation ConsoleRegenerateRecoveryCodes($input: TwoFactorCodeInput!) {
    regenerateRecoveryCodes(input: $input) { recoveryCodes }
  }
`);

export const DISABLE_TWO_FACTOR_MUTATION = graphql(`
  mutation ConsoleDisableTwoFactor($input: TwoFactorCodeInput!) {
    disableTwoFactor(input: $input) { user { id twoFactorEnabled } }
  }
`);

export const END_SESSION_MUTATION = graphql(`
  mutation ConsoleEndSession($input: SessionIdInput!) { endSession(input: $input) { ok } }
`);

export const SIGN_OUT_EVERYWHERE_MUTATION = graphql(`
  mutation ConsoleSignOutEverywhere { signOutEverywhere { ok } }
`);

type SecurityViewer = NonNullable<ResultOf<typeof SECURITY_QUERY>['viewer']>;

const WHEN = { dateStyle: 'medium', timeStyle: 'short' } as const;

/**
 * `/admin/security`: two-factor sign-in (set up with an authenticator app, recovery codes, turn
 * off) and the account's signed-in devices (end one, or all). When the organization requires
 * two-factor sign-in and the account has none, this is the only page the console shows.
 */
export function SecurityPage() {
  const [{ data, error }, reexecute] = useQuery({
    query: SECURITY_QUERY,
    requestPolicy: 'network-only',
  });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  if (!data?.viewer) {
    return (
      <main className="page narrow">
        <h1>Security</h1>
        {error ? <p role="alert">{errorText(errorCodeOf(error))}</p> : <Loading />}
      </main>
    );
  }
  const viewer = data.viewer;
  return (
    <main className="page narrow security-page">
      <h1>Security</h1>
      {viewer.staffAccess === 'ENROLMENT_NEEDED' && (
        <p role="status" className="notice">
          Your organization requires two-factor sign-in for staff. Set it up to moderate.
        </p>
      )}
      <TwoFactorSection viewer={viewer} onChange={refresh} />
      <DevicesSection viewer={viewer} onChange={refresh} />
    </main>
  );
}

/**
 * Recovery codes being shown, kept outside the page: confirming an enrolment ends every other
 * session and hands the console a new one, which remounts it; the codes must still be there.
 * Forgotten once saved (or when the console is closed: they are shown once).
 */
let unsavedCodes: string[] | null = null;

/** Two-factor sign-in: off (set it up), being set up, or on (recovery codes, turn off). */
function TwoFactorSection({ viewer, onChange }: { viewer: SecurityViewer; onChange: () => void }) {
  const [enrolment, setEnrolment] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [codes, setShownCodes] = useState<string[] | null>(unsavedCodes);
  const setCodes = (next: string[] | null) => {
    unsavedCodes = next;
    setShownCodes(next);
  };
  const { session } = useConsoleEnv();

  if (codes !== null) {
    return (
      <section aria-labelledby="recovery-title">
        <h2 id="recovery-title">Recovery codes</h2>
        <p>
          Keep these somewhere safe, apart from your phone. Each signs you in once if you lose your
          authenticator app. They are shown only now.
        </p>
        <ul className="recovery-codes" aria-label="Recovery codes">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="primary"
          onClick={() => {
            setCodes(null);
            onChange();
          }}
        >
          I have saved them
        </button>
      </section>
    );
  }

  if (enrolment !== null) {
    return (
      <section aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">Set up two-factor sign-in</h2>
        <p>
          Scan this code with an authenticator app (such as Google Authenticator, 1Password or
          Aegis), or type the key in by hand. Then enter the six-digit code it shows.
        </p>
        <img
          className="qr"
          width={200}
          height={200}
          alt="QR code for the authenticator app"
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        />
        <p>
          Key: <code className="secret">{enrolment.secret}</code>
        </p>
        <CodeForm
          label="Code from the app"
          submitLabel="Turn on"
          mutation={CONFIRM_ENROLMENT_MUTATION}
          onDone={(data) => {
            setEnrolment(null);
            setCodes(data.confirmTwoFactorEnrolment.recoveryCodes);
            // Every session signed before ended, this one too: the enrolment's session (which
            // passed the second factor) takes over at once.
            const { token } = data.confirmTwoFactorEnrolment;
            if (token) void session.signIn(token);
          }}
        />
        <button type="button" onClick={() => setEnrolment(null)}>
          Cancel
        </button>
      </section>
    );
  }

  if (!viewer.twoFactorEnabled) {
    return (
      <section aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">Two-factor sign-in</h2>
        <p>
          Off. With it on, signing in to the console takes your password and a code from an
          authenticator app on your phone.
        </p>
        <StartButton onStarted={(started) => setEnrolment(started)} />
      </section>
    );
  }

  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <p>On. {viewer.recoveryCodesLeft ?? 0} of 10 recovery codes left.</p>
      <details>
        <summary>New recovery codes</summary>
        <p>The old ones stop working.</p>
        <CodeForm
          label="Code from the app"
          submitLabel="Make new codes"
          mutation={REGENERATE_CODES_MUTATION}
          onDone={(data) => setCodes(data.regenerateRecoveryCodes.recoveryCodes)}
        />
      </details>
      <details>
        <summary>Turn off</summary>
        <CodeForm
          label="Code from the app, or a recovery code"
          submitLabel="Turn off two-factor sign-in"
          mutation={DISABLE_TWO_FACTOR_MUTATION}
          onDone={onChange}
        />
      </details>
    </section>
  );
}

/** Starts an enrolment with the account's password (a session alone is not enough). */
function StartButton({
  onStarted,
}: {
  onStarted: (started: { secret: string; qrSvg: string }) => void;
}) {
  const [{ fetching: busy }, start] = useMutation(START_ENROLMENT_MUTATION);
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | undefined>(undefined);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') {
      setFailure('Enter your password.');
      return;
    }
    const result = await start({ input: { password } });
    if (result.data) {
      setPassword('');
      onStarted(result.data.startTwoFactorEnrolment);
      return;
    }
    const code = errorCodeOf(result.error);
    setFailure(code === 'INVALID_CREDENTIALS' ? 'That is not your password.' : errorText(code));
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label="Your password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={failure}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Set up two-factor sign-in
        </button>
      </div>
    </form>
  );
}

/** A one-field form sending `{ input: { code } }` to `mutation`. */
function CodeForm<T>({
  label,
  submitLabel,
  mutation,
  onDone,
}: {
  label: string;
  submitLabel: string;
  mutation: Parameters<typeof useMutation<T, { input: { code: string } }>>[0];
  onDone: (data: T) => void;
}) {
  const [{ fetching }, send] = useMutation<T, { input: { code: string } }>(mutation);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | undefined>(undefined);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') {
      setFailure('Enter the code.');
      return;
    }
    const result = await send({ input: { code } });
    if (result.data) {
      setCode('');
      setFailure(undefined);
      onDone(result.data);
    } else setFailure(errorText(errorCodeOf(result.error)));
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label={label}
        autoComplete="one-time-code"
        inputMode="text"
        value={code}
        error={failure}
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={fetching}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** The signed-in devices: when each signed in and was last used; end one, or all. */
function DevicesSection({ viewer, onChange }: { viewer: SecurityViewer; onChange: () => void }) {
  const { session } = useConsoleEnv();
  const [, endSession] = useMutation(END_SESSION_MUTATION);
  const [, signOutEverywhere] = useMutation(SIGN_OUT_EVERYWHERE_MUTATION);
  const [failure, setFailure] = useState<string | null>(null);
  const sessions = viewer.sessions ?? [];
  async function end(id: string) {
    const result = await endSession({ input: { id } });
    if (result.error) setFailure(errorText(errorCodeOf(result.error)));
    else onChange();
  }
  async function endAll() {
    const result = await signOutEverywhere({});
    if (result.error) setFailure(errorText(errorCodeOf(result.error)));
    // This session ended too.
    else await session.signOut();
  }
  return (
    <section aria-labelledby="devices-title">
      <h2 id="devices-title">Signed-in devices</h2>
      {failure && <p role="alert">{failure}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Signed in</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>
                {s.device || 'Unknown device'}
                {s.current && ' (this device)'}
                {s.secondFactor && ' · with code'}
              </td>
              <td>{new Date(s.createdAt).toLocaleString(undefined, WHEN)}</td>
              <td>{new Date(s.lastUsedAt).toLocaleString(undefined, WHEN)}</td>
              <td>
                {!s.current && (
                  <button
                    type="button"
                    aria-label={`Sign out ${s.device || 'Unknown device'}, signed in ${new Date(s.createdAt).toLocaleString(undefined, WHEN)}`}
                    onClick={() => void end(s.id)}
                  >
                    Sign out
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => void endAll()}>
        Sign out everywhere
      </button>
    </section>
  );
}
