import { useState } from 'react';
import { formatWhen } from '../../formatWhen';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { Field } from '../../Field';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { SecretShownOnce } from './SecretShownOnce';

const ApiTokenFields = graphql(`
  fragment ApiTokenFields on ApiToken {
    id name scope secret createdAt lastUsedAt revokedAt createdBy { id username }
  }
`);

/** An API token as this page lists it; `secret` is set only in the answer that made it. */
export type ConsoleApiToken = ResultOf<typeof ApiTokenFields>;

/** Every token, newest first, revoked ones included. */
export const API_TOKENS_QUERY = graphql(
  `query ConsoleApiTokens { apiTokens { ...ApiTokenFields } }`,
  [ApiTokenFields],
);

/** Makes a token; its answer holds the secret, once. */
export const CREATE_API_TOKEN_MUTATION = graphql(
  `
    mutation ConsoleCreateApiToken($input: CreateApiTokenInput!) {
      createApiToken(input: $input) { apiToken { ...ApiTokenFields } }
    }
  `,
  [ApiTokenFields],
);

/** Revokes a token at once. */
export const REVOKE_API_TOKEN_MUTATION = graphql(
  `
    mutation ConsoleRevokeApiToken($input: RevokeApiTokenInput!) {
      revokeApiToken(input: $input) { apiToken { ...ApiTokenFields } }
    }
  `,
  [ApiTokenFields],
);

type Scope = ConsoleApiToken['scope'];

/** What each scope lets a token do, as the select says it, and its name, as the table says it. */
export const SCOPE_TEXT: Record<Scope, { label: ConsoleMessageKey; short: ConsoleMessageKey }> = {
  READ: {
    label: 'console.integrations.tokens.scope.READ',
    short: 'console.integrations.tokens.scopeShort.READ',
  },
  MODERATE: {
    label: 'console.integrations.tokens.scope.MODERATE',
    short: 'console.integrations.tokens.scopeShort.MODERATE',
  },
  ADMIN: {
    label: 'console.integrations.tokens.scope.ADMIN',
    short: 'console.integrations.tokens.scopeShort.ADMIN',
  },
};

/** Longest name the server takes (apiTokenAdmin.ts). */
const NAME_MAX_LENGTH = 80;

/**
 * Configure › API tokens: make a named, scoped token for a script or another server (its secret
 * shown once, here, until dismissed), see when each was last used, revoke one. A token acts as
 * the admin who made it, within its scope; it never posts, signs in or changes an account.
 */
export function ApiTokenSettings() {
  const { window: win } = useConsoleEnv();
  const t = useT();
  const errorText = useErrorText();
  const when = (iso: string | null | undefined) =>
    iso ? formatWhen(iso) : t('console.integrations.tokens.never');
  const [{ data, error: loadError }, reload] = useQuery({ query: API_TOKENS_QUERY });
  const [creating, create] = useMutation(CREATE_API_TOKEN_MUTATION);
  const [revoking, revoke] = useMutation(REVOKE_API_TOKEN_MUTATION);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('READ');
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<{ id: string; secret: string } | null>(null);
  const busy = creating.fetching || revoking.fetching;
  const tokens = data?.apiTokens ?? [];

  async function onCreate(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const trimmed = name.trim();
    if (trimmed === '' || [...trimmed].length > NAME_MAX_LENGTH) {
      setNameError(t('console.integrations.tokens.nameLength', { max: NAME_MAX_LENGTH }));
      win.document.getElementById('api-token-name')?.focus();
      return;
    }
    setNameError(undefined);
    // Sent once, never retried: a retry would make a second token and lose the first's secret.
    const result = await create({ input: { name: trimmed, scope } }, { clientMutationId: false });
    if (result.error) {
      const err = toTransportError(result.error);
      if (err.code === 'INVALID_INPUT' && err.field === 'name') {
        setNameError(t('console.integrations.tokens.nameTaken'));
        win.document.getElementById('api-token-name')?.focus();
      } else setError(errorText(err.code));
      return;
    }
    const made = result.data?.createApiToken.apiToken;
    if (made?.secret) setFresh({ id: made.id, secret: made.secret });
    setName('');
    // A list with tokens is refetched by the answer's ApiToken (the transport's cache); an
    // empty list holds none to be invalidated by.
    if (tokens.length === 0) reload({ requestPolicy: 'network-only' });
  }

  async function onRevoke(token: ConsoleApiToken) {
    if (!win.confirm(t('console.integrations.tokens.revokeConfirm', { name: token.name }))) return;
    setError(null);
    const result = await revoke({ input: { tokenId: token.id } });
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else if (fresh?.id === token.id) setFresh(null);
  }

  return (
    <div className="api-tokens">
      <p>
        {t('console.integrations.tokens.intro.before')}
        <code>Authorization: Bearer …</code>
        {t('console.integrations.tokens.intro.middle')}
        <code>/graphql</code>
        {t('console.integrations.tokens.intro.after')}
      </p>
      <form
        onSubmit={(event) => void onCreate(event)}
        noValidate
        aria-label={t('console.integrations.tokens.form')}
      >
        <Field
          id="api-token-name"
          label={t('console.integrations.tokens.name')}
          hint={t('console.integrations.tokens.nameHint')}
          value={name}
          maxLength={NAME_MAX_LENGTH}
          error={nameError}
          onChange={(event) => setName(event.target.value)}
        />
        <div className="field">
          <label htmlFor="api-token-scope">{t('console.integrations.tokens.scope')}</label>
          <select
            id="api-token-scope"
            value={scope}
            onChange={(event) => setScope(event.target.value as Scope)}
          >
            {(Object.keys(SCOPE_TEXT) as Scope[]).map((value) => (
              <option key={value} value={value}>
                {t(SCOPE_TEXT[value].label)}
              </option>
            ))}
          </select>
        </div>
        <div className="action-row">
          <button type="submit" disabled={busy}>
            {t('console.integrations.tokens.create')}
          </button>
        </div>
      </form>
      {fresh !== null && (
        <SecretShownOnce
          label={t('console.integrations.tokens.secret.label')}
          secret={fresh.secret}
          testId="api-token-secret"
          copyLabel={t('console.integrations.tokens.secret.copy')}
          onDismiss={() => setFresh(null)}
        >
          <strong>{t('console.integrations.tokens.secret.title')}</strong>{' '}
          {t('console.integrations.tokens.secret.text')}
        </SecretShownOnce>
      )}
      {error !== null && <p role="alert">{error}</p>}
      <h2>{t('console.integrations.tokens.title')}</h2>
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">{t('console.integrations.loading')}</p>
      ) : tokens.length === 0 ? (
        <p>{t('console.integrations.tokens.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.integrations.tokens.column.name')}</th>
                <th scope="col">{t('console.integrations.tokens.column.scope')}</th>
                <th scope="col">{t('console.integrations.tokens.column.created')}</th>
                <th scope="col">{t('console.integrations.tokens.column.lastUsed')}</th>
                <th scope="col">
                  <span className="visually-hidden">
                    {t('console.integrations.tokens.column.actions')}
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>{t(SCOPE_TEXT[token.scope].short)}</td>
                  <td>
                    {token.createdBy
                      ? t('console.integrations.tokens.createdBy', {
                          when: when(token.createdAt),
                          username: token.createdBy.username,
                        })
                      : when(token.createdAt)}
                  </td>
                  <td>{when(token.lastUsedAt)}</td>
                  <td>
                    {token.revokedAt !== null ? (
                      t('console.integrations.tokens.revoked', { when: when(token.revokedAt) })
                    ) : (
                      <button
                        type="button"
                        disabled={busy}
                        aria-label={t('console.integrations.tokens.revokeNamed', {
                          name: token.name,
                        })}
                        onClick={() => void onRevoke(token)}
                      >
                        {t('console.integrations.tokens.revoke')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
