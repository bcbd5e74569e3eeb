import { useState } from 'react';
import { formatWhen } from '../../formatWhen';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
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
  const t = useT();
  const errorText = useErrorText();
  const [fresh, setFresh] = useState<FreshSecret | null>(initial ?? null);
  const [error, setError] = useState<string | null>(null);
  const [rotating, rotate] = useMutation(ROTATE_KEY_MUTATION);
  const [revoking, revoke] = useMutation(REVOKE_KEY_MUTATION);
  const keys: SsoKey[] = site.ssoKeys ?? [];
  const current = keys.some((key) => key.expiresAt === null && !key.revoked);
  const busy = rotating.fetching || revoking.fetching;

  async function onRotate(revokeOld: boolean) {
    if (revokeOld && !win.confirm(t('console.configure.sso.confirmRevokeCurrent'))) {
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
    if (!win.confirm(t('console.configure.sso.confirmRevoke'))) return;
    setError(null);
    const result = await revoke({ input: { siteId: site.id, keyId: key.id } });
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else if (fresh?.keyId === key.id) setFresh(null);
  }

  return (
    <section aria-labelledby={`keys-${site.id}`} className="sso-keys">
      <h3 id={`keys-${site.id}`}>{t('console.configure.sso.title')}</h3>
      {fresh !== null && (
        <SecretShownOnce
          label={t('console.configure.sso.newSecret')}
          secret={fresh.secret}
          testId="sso-secret"
          copyLabel={t('console.configure.sso.copySecret')}
          onDismiss={() => setFresh(null)}
        >
          <strong>{t('console.configure.sso.shownOnce.strong')}</strong>{' '}
          {t('console.configure.sso.shownOnce.rest')}
        </SecretShownOnce>
      )}
      {keys.length === 0 ? (
        <p>{t('console.configure.sso.none')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.configure.sso.columnCreated')}</th>
                <th scope="col">{t('console.configure.sso.columnState')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('console.configure.columnActions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{formatWhen(key.createdAt)}</th>
                  <td>
                    {key.expiresAt === null
                      ? t('console.configure.sso.current')
                      : t('console.configure.sso.validUntil', { date: formatWhen(key.expiresAt) })}
                  </td>
                  <td>
                    <button type="button" disabled={busy} onClick={() => void onRevoke(key)}>
                      {t('console.configure.sso.revoke.visible')}
                      <span className="visually-hidden">
                        {' '}
                        {t('console.configure.sso.revoke.hidden', {
                          date: formatWhen(key.createdAt),
                        })}
                      </span>
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
              {t('console.configure.sso.rotate')}
            </button>
            <button type="button" disabled={busy} onClick={() => void onRotate(true)}>
              {t('console.configure.sso.rotateRevoke')}
            </button>
          </>
        ) : (
          <button type="button" disabled={busy} onClick={() => void onRotate(false)}>
            {t('console.configure.sso.generate')}
          </button>
        )}
      </div>
      <p className="hint">{t('console.configure.sso.overlapHint')}</p>
      {error !== null && <p role="alert">{error}</p>}
    </section>
  );
}
