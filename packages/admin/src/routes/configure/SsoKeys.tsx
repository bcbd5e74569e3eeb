import { useState } from 'react';
import { formatWhen } from '../../formatWhen';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorText } from '../../errorText';
import { REVOKE_KEY_MUTATION, ROTATE_KEY_MUTATION } from './configureQueries';
import type { AdminSite, SsoKey } from './configureQueries';
import { SecretShownOnce } from './SecretShownOnce';

/** A secret just created: the server answers it in that response only. */
export interface FreshSecret {
  keyId: string;
  secret: string;
}

/** The key with a secret in a mutation's answer (the one it created), if any. */
export function freshSecretOf(site: AdminSite | null | undefined): FreshSecret | null {
  const key = site?.ssoKeys?.find((k) => k.secret !== null);
  return key?.secret ? { keyId: key.id, secret: key.secret } : null;
}

/**
 * A site's SSO signing keys: generate, rotate (the old key keeps verifying for the overlap so
 * the host can deploy the new secret), rotate revoking the old one, revoke. A new secret is shown
 * once, here, until dismissed: the server never answers it again.
 */
export function SsoKeys({ site, initial }: { site: AdminSite; initial?: FreshSecret | null }) {
  const { window: win } = useConsoleEnv();
  const [fresh, setFresh] = useState<FreshSecret | null>(initial ?? null);
  const [error, setError] = useState<string | null>(null);
  const [rotating, rotate] = useMutation(ROTATE_KEY_MUTATION);
  const [revoking, revoke] = useMutation(REVOKE_KEY_MUTATION);
  const keys: SsoKey[] = site.ssoKeys ?? [];
  const current = keys.some((key) => key.expiresAt === null && !key.revoked);
  const busy = rotating.fetching || revoking.fetching;

  async function onRotate(revokeOld: boolean) {
    if (revokeOld && !win.confirm('Revoke the current key now? Sign-ins signed with it stop.')) {
      return;
    }
    setError(null);
    // Sent once, never retried: a retry would rotate twice and lose the first new secret.
    const result = await rotate(
      { input: { siteId: site.id, revokeOld } },
      { clientMutationId: false },
    );
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else setFresh(freshSecretOf(result.data?.rotateSsoKey.site));
  }

  async function onRevoke(key: SsoKey) {
    if (!win.confirm('Revoke this key now? Sign-ins signed with it stop.')) return;
    setError(null);
    const result = await revoke({ input: { siteId: site.id, keyId: key.id } });
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else if (fresh?.keyId === key.id) setFresh(null);
  }

  return (
    <section aria-labelledby={`keys-${site.id}`} className="sso-keys">
      <h3 id={`keys-${site.id}`}>SSO signing keys</h3>
      {fresh !== null && (
        <SecretShownOnce
          label="New secret"
          secret={fresh.secret}
          testId="sso-secret"
          copyLabel="Copy secret"
          onDismiss={() => setFresh(null)}
        >
          <strong>New secret, shown once.</strong> Copy it into your site’s SSO configuration now;
          it cannot be shown again.
        </SecretShownOnce>
      )}
      {keys.length === 0 ? (
        <p>No active key: SSO sign-in is off for this site.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{formatWhen(key.createdAt)}</th>
                  <td>
                    {key.expiresAt === null
                      ? 'Current'
                      : `Valid until ${formatWhen(key.expiresAt)}`}
                  </td>
                  <td>
                    <button type="button" disabled={busy} onClick={() => void onRevoke(key)}>
                      Revoke
                      <span className="visually-hidden"> key of {formatWhen(key.createdAt)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="action-row">
        {current ? (
          <>
            <button type="button" disabled={busy} onClick={() => void onRotate(false)}>
              Rotate key
            </button>
            <button type="button" disabled={busy} onClick={() => void onRotate(true)}>
              Rotate and revoke the old key
            </button>
          </>
        ) : (
          <button type="button" disabled={busy} onClick={() => void onRotate(false)}>
            Generate key
          </button>
        )}
      </div>
      <p className="hint">After a rotation the previous key keeps working for 7 days.</p>
      {error !== null && <p role="alert">{error}</p>}
    </section>
  );
}
