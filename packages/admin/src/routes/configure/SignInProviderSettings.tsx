import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText, useFieldErrorText } from '../../errorText';
import { Field } from '../../Field';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
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

interface KindText {
  /** Its name: a product's, the same in every language. */
  label: string;
  /** What the select says of it, when more than its name. */
  option?: ConsoleMessageKey;
  /** The name its button starts with. */
  name: string;
}

/** Each kind as the table and the select say it, and the name its button starts with. */
export const KIND_TEXT: Record<Kind, KindText> = {
  GITHUB: { label: 'GitHub', name: 'GitHub' },
  GOOGLE: { label: 'Google', name: 'Google' },
  OIDC: { label: 'OpenID Connect', option: 'console.integrations.providers.kind.OIDC', name: '' },
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
  const t = useT();
  const errorText = useErrorText();
  const fieldErrorText = useFieldErrorText();
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
    if (d.name.trim() === '') problems['name'] = t('console.integrations.providers.nameMissing');
    if (d.kind === 'OIDC' && !/^https?:\/\/\S+$/.test(d.issuerUrl.trim())) {
      problems['issuerUrl'] = t('console.integrations.providers.issuerUrlInvalid');
    }
    if (d.clientId.trim() === '') {
      problems['clientId'] = t('console.integrations.providers.clientIdMissing');
    }
    if (d.id === null && d.clientSecret.trim() === '') {
      problems['clientSecret'] = t('console.integrations.providers.clientSecretMissing');
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
        setFieldErrors({ [err.field]: fieldErrorText(err) });
        win.document.getElementById(id)?.focus();
      } else setError(errorText(err.code));
      return;
    }
    setDraft(null);
    reload({ requestPolicy: 'network-only' });
  }

  async function onRemove(provider: ConsoleSignInProvider) {
    if (!win.confirm(t('console.integrations.providers.removeConfirm', { name: provider.name }))) {
      return;
    }
    setError(null);
    const result = await remove({ input: { id: provider.id } });
    if (result.error) {
      const { code } = toTransportError(result.error);
      setError(
        code === 'FORBIDDEN'
          ? t('console.integrations.providers.removeForbidden', { name: provider.name })
          : errorText(code),
      );
      return;
    }
    reload({ requestPolicy: 'network-only' });
  }

  return (
    <section className="sign-in-providers" aria-labelledby="sign-in-providers-title">
      <h2 id="sign-in-providers-title">{t('console.integrations.providers.title')}</h2>
      <p>{t('console.integrations.providers.intro')}</p>
      {error !== null && <p role="alert">{error}</p>}
      {loadError && !data ? (
        <p role="alert">{errorText(toTransportError(loadError).code)}</p>
      ) : !data ? (
        <p className="loading">{t('console.integrations.loading')}</p>
      ) : providers.length === 0 ? (
        <p>{t('console.integrations.providers.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('console.integrations.providers.column.button')}</th>
                <th scope="col">{t('console.integrations.providers.column.kind')}</th>
                <th scope="col">{t('console.integrations.providers.column.sites')}</th>
                <th scope="col">{t('console.integrations.providers.column.callbackUrl')}</th>
                <th scope="col">
                  <span className="visually-hidden">
                    {t('console.integrations.providers.column.actions')}
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {providers.map((provider) => (
                <tr key={provider.id}>
                  <th scope="row">
                    {t('console.integrations.providers.button', { name: provider.name })}
                  </th>
                  <td>
                    {KIND_TEXT[provider.kind].label}
                    {provider.issuerUrl ? ` · ${provider.issuerUrl}` : ''}
                  </td>
                  <td>
                    {(provider.siteIds ?? []).map(siteName).join(', ') ||
                      t('console.integrations.providers.noSite')}
                  </td>
                  <td>
                    <code>{provider.callbackUrl}</code>{' '}
                    <CopyButton
                      text={provider.callbackUrl ?? ''}
                      label={t('console.integrations.providers.copyCallbackUrl')}
                    />
                  </td>
                  <td className="action-row">
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={t('console.integrations.providers.editNamed', {
                        name: provider.name,
                      })}
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
                      {t('console.integrations.providers.edit')}
                    </button>
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={t('console.integrations.providers.removeNamed', {
                        name: provider.name,
                      })}
                      onClick={() => void onRemove(provider)}
                    >
                      {t('console.integrations.providers.remove')}
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
            {t('console.integrations.providers.add')}
          </button>
        </div>
      ) : (
        <form
          onSubmit={(event) => void onSave(event)}
          noValidate
          aria-label={
            draft.id === null
              ? t('console.integrations.providers.form')
              : t('console.integrations.providers.editNamed', { name: draft.name })
          }
        >
          {draft.id === null && (
            <div className="field">
              <label htmlFor="provider-kind">{t('console.integrations.providers.kind')}</label>
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
                    {KIND_TEXT[kind].option ? t(KIND_TEXT[kind].option) : KIND_TEXT[kind].label}
                  </option>
                ))}
              </select>
            </div>
          )}
          <Field
            id="provider-name"
            label={t('console.integrations.providers.name')}
            hint={t('console.integrations.providers.nameHint')}
            value={draft.name}
            maxLength={40}
            error={fieldErrors['name']}
            onChange={(event) => set({ name: event.target.value })}
          />
          {draft.kind === 'OIDC' && (
            <Field
              id="provider-issuer"
              label={t('console.integrations.providers.issuerUrl')}
              hint={t('console.integrations.providers.issuerUrlHint')}
              value={draft.issuerUrl}
              error={fieldErrors['issuerUrl']}
              onChange={(event) => set({ issuerUrl: event.target.value })}
            />
          )}
          <Field
            id="provider-client-id"
            label={t('console.integrations.providers.clientId')}
            value={draft.clientId}
            error={fieldErrors['clientId']}
            onChange={(event) => set({ clientId: event.target.value })}
          />
          <Field
            id="provider-client-secret"
            label={t('console.integrations.providers.clientSecret')}
            type="password"
            autoComplete="off"
            hint={
              draft.id === null
                ? t('console.integrations.providers.clientSecretHintNew')
                : t('console.integrations.providers.clientSecretHintStored')
            }
            value={draft.clientSecret}
            error={fieldErrors['clientSecret']}
            onChange={(event) => set({ clientSecret: event.target.value })}
          />
          <fieldset>
            <legend>{t('console.integrations.providers.sites')}</legend>
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
              {draft.id === null
                ? t('console.integrations.providers.create')
                : t('console.integrations.providers.save')}
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              {t('console.integrations.providers.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
