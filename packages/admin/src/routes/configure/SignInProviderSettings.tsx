import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { errorText } from '../../errorText';
import { Field } from '../../Field';
import { CopyButton } from './CopyButton';

const SignInProviderFields = graphql(`
  fragment SignInProviderFields on SignInProvider {
    id kind name issuerUrl clientId clientSecretSet siteIds callbackUrl
  }
`);

/** A configured provider as this section lists it. */
export type ConsoleSignInProvider = ResultOf<typeof SignInProviderFields>;

/** The providers, and the sites each may be switched on for. */
export const SIGN_IN_PROVIDERS_QUERY = graphql(
  `query ConsoleSignInProviders { configuredSignInProviders { ...SignInProviderFields } sites { id name } }`,
  [SignInProviderFields],
);

export const CREATE_SIGN_IN_PROVIDER_MUTATION = graphql(
  `
    mutation ConsoleCreateSignInProvider($input: CreateSignInProviderInput!) {
      createSignInProvider(input: $input) { signInProvider { ...SignInProviderFields } }
    }
  `,
  [SignInProviderFields],
);

export const UPDATE_SIGN_IN_PROVIDER_MUTATION = graphql(
  `
    mutation ConsoleUpdateSignInProvider($input: UpdateSignInProviderInput!) {
      updateSignInProvider(input: $input) { signInProvider { ...SignInProviderFields } }
    }
  `,
  [SignInProviderFields],
);

export const DELETE_SIGN_IN_PROVIDER_MUTATION = graphql(`
  mutation ConsoleDeleteSignInProvider($input: DeleteSignInProviderInput!) {
    deleteSignInProvider(input: $input) { ok }
  }
`);

type Kind = ConsoleSignInProvider['kind'];

/** Each kind as the select says it, and the name its button starts with. */
export const KIND_TEXT: Record<Kind, { label: string; name: string }> = {
  GITHUB: { label: 'GitHub', name: 'GitHub' },
  GOOGLE: { label: 'Google', name: 'Google' },
  OIDC: { label: 'OpenID Connect (Keycloak, Auth0, Authentik, Entra…)', name: '' },
};

/** The form's draft: a new provider, or changes to one (an empty secret keeps the stored one). */
interface Draft {
  id: string | null;
  kind: Kind;
  name: string;
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  siteIds: string[];
}

const EMPTY: Draft = {
  id: null,
  kind: 'GITHUB',
  name: 'GitHub',
  issuerUrl: '',
  clientId: '',
  clientSecret: '',
  siteIds: [],
};

/** The fields each server error code points at, as this form says them. */
const FIELD_IDS: Record<string, string> = {
  name: 'provider-name',
  issuerUrl: 'provider-issuer',
  clientId: 'provider-client-id',
  clientSecret: 'provider-client-secret',
};

/**
 * Configure › Authentication › Sign-in providers: GitHub, Google and OpenID Connect issuers that
 * readers may sign in with, each switched on per site. The client secret is write-only: it is
 * sent, never shown again ("stored" says so). Each provider's callback URL is shown to copy into
 * the provider's settings.
 */
export function SignInProviderSettings() {
  const { window: win } = useConsoleEnv();
  const [{ data, error: loadError }, reload] = useQuery({ query: SIGN_IN_PROVIDERS_QUERY });
  const [creating, create] = useMutation(CREATE_SIGN_IN_PROVIDER_MUTATION);
  const [updating, update] = useMutation(UPDATE_SIGN_IN_PROVIDER_MUTATION);
  const [deleting, remove] = useMutation(DELETE_SIGN_IN_PROVIDER_MUTATION);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const busy = creating.fetching || updating.fetching || deleting.fetching;
  const providers = data?.configuredSignInProviders ?? [];
  const sites = data?.sites ?? [];
  const siteName = (id: string) => sites.find((s) => s.id === id)?.name ?? id;

  const set = (patch: Partial<Draft>) => setDraft((d) => (d === null ? d : { ...d, ...patch }));

  function check(d: Draft): Record<string, string> {
    const problems: Record<string, string> = {};
    if (d.name.trim() === '') problems['name'] = 'Give the provider the name its button shows.';
    if (d.kind === 'OIDC' && !/^https?:\/\/\S+$/.test(d.issuerUrl.trim())) {
      problems['issuerUrl'] = 'Enter the issuer URL, such as https://id.example.com/realms/main.';
    }
    if (d.clientId.trim() === '') problems['clientId'] = 'Enter the client ID from the provider.';
    if (d.id === null && d.clientSecret.trim() === '') {
      problems['clientSecret'] = 'Enter the client secret from the provider.';
    }
    return problems;
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    if (draft === null) return;
    setError(null);
    const problems = check(draft);
    setFieldErrors(problems);
    const first = Object.keys(problems)[0];
    if (first !== undefined) {
      win.document.getElementById(FIELD_IDS[first] ?? '')?.focus();
      return;
    }
    const common = {
      name: draft.name.trim(),
      clientId: draft.clientId.trim(),
      siteIds: draft.siteIds,
      ...(draft.kind === 'OIDC' ? { issuerUrl: draft.issuerUrl.trim() } : {}),
    };
    const result =
      draft.id === null
        ? await create({
            input: { kind: draft.kind, clientSecret: draft.clientSecret, ...common },
          })
        : await update({
            input: {
              id: draft.id,
              ...common,
              ...(draft.clientSecret === '' ? {} : { clientSecret: draft.clientSecret }),
            },
          });
    if (result.error) {
      const err = toTransportError(result.error);
      const id = err.field === undefined ? undefined : FIELD_IDS[err.field];
      if (err.code === 'INVALID_INPUT' && err.field !== undefined && id !== undefined) {
        setFieldErrors({ [err.field]: err.message });
        win.document.getElementById(id)?.focus();
      } else setError(errorText(err.code));
      return;
    }
    setDraft(null);
    reload({ requestPolicy: 'network-only' });
  }

  async function onRemove(provider: ConsoleSignInProvider) {
    if (!win.confirm(`Remove “${provider.name}”? Readers can no longer sign in with it.`)) return;
    setError(null);
    const result = await remove({ input: { id: provider.id } });
    if (result.error) {
      const { code } = toTransportError(result.error);
      setError(
        code === 'FORBIDDEN'
          ? `Some accounts sign in only with ${provider.name}: switch it off for every site instead, or ask them to set a password first.`
          : errorText(code),
      );
      return;
    }
    reload({ requestPolicy: 'network-only' });
  }

  return (
    <section className="sign-in-providers" aria-labelledby="sign-in-providers-title">
      <h2 id="sign-in-providers-title">Sign-in providers</h2>
      <p>
        Readers can sign in with GitHub, Google or your organization’s OpenID Connect provider
        besides email and password. Register the callback URL shown for each provider in its
        settings. A provider’s verified email never joins an existing account without that account’s
        password or a link emailed to it.
      </p>
      {error !== null && <p role="alert">{error}</p>}
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">Loading…</p>
      ) : providers.length === 0 ? (
        <p>No sign-in providers yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Button</th>
                <th scope="col">Kind</th>
                <th scope="col">On for</th>
                <th scope="col">Callback URL</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {providers.map((provider) => (
                <tr key={provider.id}>
                  <th scope="row">Continue with {provider.name}</th>
                  <td>
                    {KIND_TEXT[provider.kind].label.split(' (')[0]}
                    {provider.issuerUrl ? ` · ${provider.issuerUrl}` : ''}
                  </td>
                  <td>
                    {(provider.siteIds ?? []).map(siteName).join(', ') || 'No site (switched off)'}
                  </td>
                  <td>
                    <code>{provider.callbackUrl}</code>{' '}
                    <CopyButton text={provider.callbackUrl ?? ''} label="Copy callback URL" />
                  </td>
                  <td className="action-row">
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Edit ${provider.name}`}
                      onClick={() => {
                        setFieldErrors({});
                        setDraft({
                          id: provider.id,
                          kind: provider.kind,
                          name: provider.name,
                          issuerUrl: provider.issuerUrl ?? '',
                          clientId: provider.clientId ?? '',
                          clientSecret: '',
                          siteIds: [...(provider.siteIds ?? [])],
                        });
                      }}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Remove ${provider.name}`}
                      onClick={() => void onRemove(provider)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!data ? null : draft === null ? (
        // Offered once the sites are known: a new provider starts on for every site.
        <div className="action-row">
          <button
            type="button"
            onClick={() => {
              setFieldErrors({});
              setDraft({ ...EMPTY, siteIds: sites.map((s) => s.id) });
            }}
          >
            Add a sign-in provider
          </button>
        </div>
      ) : (
        <form
          onSubmit={(event) => void onSave(event)}
          noValidate
          aria-label={draft.id === null ? 'New sign-in provider' : `Edit ${draft.name}`}
        >
          {draft.id === null && (
            <div className="field">
              <label htmlFor="provider-kind">Kind</label>
              <select
                id="provider-kind"
                value={draft.kind}
                onChange={(event) => {
                  const kind = event.target.value as Kind;
                  set({ kind, name: KIND_TEXT[kind].name, issuerUrl: '' });
                }}
              >
                {(Object.keys(KIND_TEXT) as Kind[]).map((kind) => (
                  <option key={kind} value={kind}>
                    {KIND_TEXT[kind].label}
                  </option>
                ))}
              </select>
            </div>
          )}
          <Field
            id="provider-name"
            label="Name"
            hint="The button says “Continue with” this name."
            value={draft.name}
            maxLength={40}
            error={fieldErrors['name']}
            onChange={(event) => set({ name: event.target.value })}
          />
          {draft.kind === 'OIDC' && (
            <Field
              id="provider-issuer"
              label="Issuer URL"
              hint="Its /.well-known/openid-configuration describes the provider (https)."
              value={draft.issuerUrl}
              error={fieldErrors['issuerUrl']}
              onChange={(event) => set({ issuerUrl: event.target.value })}
            />
          )}
          <Field
            id="provider-client-id"
            label="Client ID"
            value={draft.clientId}
            error={fieldErrors['clientId']}
            onChange={(event) => set({ clientId: event.target.value })}
          />
          <Field
            id="provider-client-secret"
            label="Client secret"
            type="password"
            autoComplete="off"
            hint={
              draft.id === null
                ? 'Stored encrypted; never shown again.'
                : 'A secret is stored. Leave empty to keep it, or enter a new one.'
            }
            value={draft.clientSecret}
            error={fieldErrors['clientSecret']}
            onChange={(event) => set({ clientSecret: event.target.value })}
          />
          <fieldset>
            <legend>On for</legend>
            {sites.map((site) => (
              <label key={site.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.siteIds.includes(site.id)}
                  onChange={(event) =>
                    set({
                      siteIds: event.target.checked
                        ? [...draft.siteIds, site.id]
                        : draft.siteIds.filter((id) => id !== site.id),
                    })
                  }
                />{' '}
                {site.name}
              </label>
            ))}
          </fieldset>
          <div className="action-row">
            <button type="submit" disabled={busy}>
              {draft.id === null ? 'Add provider' : 'Save provider'}
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
