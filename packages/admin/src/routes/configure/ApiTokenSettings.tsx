import { useState } from 'react';
import { formatWhen } from '../../formatWhen';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorText } from '../../errorText';
import { Field } from '../../Field';
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

/** What each scope lets a token do, as the select and the table say it. */
export const SCOPE_TEXT: Record<Scope, string> = {
  READ: 'Read: every query, no changes',
  MODERATE: 'Moderate: decisions on comments, people and stories',
  ADMIN: 'Admin: moderation, and settings, sites and roles',
};

/** Longest name the server takes (apiTokenAdmin.ts). */
const NAME_MAX_LENGTH = 80;

const when = (iso: string | null | undefined) => (iso ? formatWhen(iso) : 'Never');

/**
 * Configure › API tokens: make a named, scoped token for a script or another server (its secret
 * shown once, here, until dismissed), see when each was last used, revoke one. A token acts as
 * the admin who made it, within its scope; it never posts, signs in or changes an account.
 */
export function ApiTokenSettings() {
  const { window: win } = useConsoleEnv();
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
      setNameError(`Give the token a name of 1 to ${NAME_MAX_LENGTH} characters.`);
      win.document.getElementById('api-token-name')?.focus();
      return;
    }
    setNameError(undefined);
    // Sent once, never retried: a retry would make a second token and lose the first's secret.
    const result = await create({ input: { name: trimmed, scope } }, { clientMutationId: false });
    if (result.error) {
      const err = toTransportError(result.error);
      if (err.code === 'INVALID_INPUT' && err.field === 'name') {
        setNameError('A token that works already has this name, or there are 50 already.');
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
    if (!win.confirm(`Revoke “${token.name}” now? Whatever uses it stops working.`)) return;
    setError(null);
    const result = await revoke({ input: { tokenId: token.id } });
    if (result.error) setError(errorText(toTransportError(result.error).code));
    else if (fresh?.id === token.id) setFresh(null);
  }

  return (
    <div className="api-tokens">
      <p>
        Scripts and other servers send a token as <code>Authorization: Bearer …</code> to{' '}
        <code>/graphql</code>, with a query of their own. A token acts as the admin who made it,
        within its scope. It stops working when revoked, and when that admin signs out everywhere,
        changes their password or stops being an admin. It never signs in, posts or changes an
        account, nor the mail server or sign-in settings.
      </p>
      <form onSubmit={(event) => void onCreate(event)} noValidate aria-label="New API token">
        <Field
          id="api-token-name"
          label="Name"
          hint="What it is for, such as “Backups” or “Slack bot”."
          value={name}
          maxLength={NAME_MAX_LENGTH}
          error={nameError}
          onChange={(event) => setName(event.target.value)}
        />
        <div className="field">
          <label htmlFor="api-token-scope">Scope</label>
          <select
            id="api-token-scope"
            value={scope}
            onChange={(event) => setScope(event.target.value as Scope)}
          >
            {(Object.keys(SCOPE_TEXT) as Scope[]).map((value) => (
              <option key={value} value={value}>
                {SCOPE_TEXT[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="action-row">
          <button type="submit" disabled={busy}>
            Create token
          </button>
        </div>
      </form>
      {fresh !== null && (
        <SecretShownOnce
          label="New API token secret"
          secret={fresh.secret}
          testId="api-token-secret"
          copyLabel="Copy token"
          onDismiss={() => setFresh(null)}
        >
          <strong>New token, shown once.</strong> Copy it into the script or server that will use it
          now; it cannot be shown again.
        </SecretShownOnce>
      )}
      {error !== null && <p role="alert">{error}</p>}
      <h2>Tokens</h2>
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">Loading…</p>
      ) : tokens.length === 0 ? (
        <p>No API tokens yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">State and actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>{SCOPE_TEXT[token.scope].split(':')[0]}</td>
                  <td>
                    {when(token.createdAt)}
                    {token.createdBy ? ` by ${token.createdBy.username}` : ''}
                  </td>
                  <td>{when(token.lastUsedAt)}</td>
                  <td>
                    {token.revokedAt !== null ? (
                      `Revoked ${when(token.revokedAt)}`
                    ) : (
                      <button type="button" disabled={busy} onClick={() => void onRevoke(token)}>
                        Revoke<span className="visually-hidden"> {token.name}</span>
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
