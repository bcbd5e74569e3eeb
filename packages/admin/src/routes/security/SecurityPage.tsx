import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorCodeOf } from '../../errorCodeOf';
import { useErrorText } from '../../errorText';
import { Field } from '../../Field';
import { formatWhen } from '../../formatWhen';
import { useT } from '../../i18n';
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
  const t = useT();
  const errorText = useErrorText();
  if (!data?.viewer) {
    return (
      <main className="page narrow">
        <h1>{t('console.security.title')}</h1>
        {error ? <p role="alert">{errorText(errorCodeOf(error))}</p> : <Loading />}
      </main>
    );
  }
  const viewer = data.viewer;
  return (
    <main className="page narrow security-page">
      <h1>{t('console.security.title')}</h1>
      {viewer.staffAccess === 'ENROLMENT_NEEDED' && (
        <p role="status" className="notice">
          {t('console.security.enrolmentNeeded')}
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
  const t = useT();

  if (codes !== null) {
    return (
      <section aria-labelledby="recovery-title">
        <h2 id="recovery-title">{t('console.security.recovery.title')}</h2>
        <p>{t('console.security.recovery.text')}</p>
        <ul className="recovery-codes" aria-label={t('console.security.recovery.title')}>
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
          {t('console.security.recovery.saved')}
        </button>
      </section>
    );
  }

  if (enrolment !== null) {
    return (
      <section aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">{t('console.security.setup.title')}</h2>
        <p>{t('console.security.setup.text')}</p>
        <img
          className="qr"
          width={200}
          height={200}
          alt={t('console.security.setup.qrAlt')}
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        />
        <p>
          {t('console.security.setup.key')} <code className="secret">{enrolment.secret}</code>
        </p>
        <CodeForm
          label={t('console.security.setup.code')}
          submitLabel={t('console.security.setup.submit')}
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
          {t('console.security.setup.cancel')}
        </button>
      </section>
    );
  }

  if (!viewer.twoFactorEnabled) {
    return (
      <section aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">{t('console.security.twoFactor.title')}</h2>
        <p>{t('console.security.twoFactor.off')}</p>
        <StartButton onStarted={(started) => setEnrolment(started)} />
      </section>
    );
  }

  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t('console.security.twoFactor.title')}</h2>
      <p>{t('console.security.twoFactor.on', { count: viewer.recoveryCodesLeft ?? 0 })}</p>
      <details>
        <summary>{t('console.security.newCodes.summary')}</summary>
        <p>{t('console.security.newCodes.text')}</p>
        <CodeForm
          label={t('console.security.newCodes.code')}
          submitLabel={t('console.security.newCodes.submit')}
          mutation={REGENERATE_CODES_MUTATION}
          onDone={(data) => setCodes(data.regenerateRecoveryCodes.recoveryCodes)}
        />
      </details>
      <details>
        <summary>{t('console.security.turnOff.summary')}</summary>
        <CodeForm
          label={t('console.security.turnOff.code')}
          submitLabel={t('console.security.turnOff.submit')}
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
  const t = useT();
  const errorText = useErrorText();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') {
      setFailure(t('console.security.start.enterPassword'));
      return;
    }
    const result = await start({ input: { password } });
    if (result.data) {
      setPassword('');
      onStarted(result.data.startTwoFactorEnrolment);
      return;
    }
    const code = errorCodeOf(result.error);
    setFailure(
      code === 'INVALID_CREDENTIALS' ? t('console.security.start.wrongPassword') : errorText(code),
    );
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label={t('console.security.start.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        error={failure}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('console.security.start.submit')}
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
  const t = useT();
  const errorText = useErrorText();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') {
      setFailure(t('console.security.code.enter'));
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
  const t = useT();
  const errorText = useErrorText();
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
      <h2 id="devices-title">{t('console.security.devices.title')}</h2>
      {failure && <p role="alert">{failure}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">{t('console.security.devices.device')}</th>
            <th scope="col">{t('console.security.devices.signedIn')}</th>
            <th scope="col">{t('console.security.devices.lastUsed')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('console.security.devices.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => {
            const device = s.device || t('console.security.devices.unknown');
            let shown = device;
            if (s.current) shown = t('console.security.devices.current', { device: shown });
            if (s.secondFactor) shown = t('console.security.devices.withCode', { device: shown });
            const signedIn = formatWhen(s.createdAt);
            return (
              <tr key={s.id}>
                <td>{shown}</td>
                <td>{signedIn}</td>
                <td>{formatWhen(s.lastUsedAt)}</td>
                <td>
                  {!s.current && (
                    <button
                      type="button"
                      aria-label={t('console.security.devices.signOutLabel', {
                        device,
                        when: signedIn,
                      })}
                      onClick={() => void end(s.id)}
                    >
                      {t('console.security.devices.signOut')}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" onClick={() => void endAll()}>
        {t('console.security.devices.signOutEverywhere')}
      </button>
    </section>
  );
}
