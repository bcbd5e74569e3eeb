import { useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { ADMIN_SITES_QUERY } from './configureQueries';
import type { ConsoleSettings } from './configureQueries';
import { FormFooter, TextField } from './SettingsFields';
import { SiteEditor } from './SiteEditor';
import type { FreshSecret } from './SsoKeys';
import { useSettingsForm } from './useSettingsForm';

/** The organization form's draft. */
export interface OrganizationValues {
  name: string;
  contactEmail: string;
  url: string;
}

function fromSettings(s: ConsoleSettings): OrganizationValues {
  const o = s.organization;
  return { name: o?.name ?? '', contactEmail: o?.contactEmail ?? '', url: o?.url ?? '' };
}

const toInput = (organization: OrganizationValues) => ({ organization });

/** Configure › Organization and sites: who runs the community, and every site it serves. */
export function OrganizationSettings({ settings }: { settings: ConsoleSettings }) {
  // The server names these fields `organization.name` and so on.
  const form = useSettingsForm({ settings, fromSettings, toInput, fieldPrefix: 'organization.' });
  const t = useT();
  return (
    <>
      <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
        <fieldset>
          <legend>{t('console.configure.organization.legend')}</legend>
          <TextField
            form={form}
            name="name"
            label={t('console.configure.organization.name')}
            autoComplete="organization"
          />
          <TextField
            form={form}
            name="contactEmail"
            label={t('console.configure.organization.contactEmail')}
            type="email"
          />
          <TextField
            form={form}
            name="url"
            label={t('console.configure.organization.url')}
            type="url"
          />
        </fieldset>
        <FormFooter form={form} />
      </form>
      <Sites />
    </>
  );
}

type Selection = { id: string | 'new'; secret: FreshSecret | null } | null;

function Sites() {
  const [{ data, error }] = useQuery({ query: ADMIN_SITES_QUERY });
  const [selected, setSelected] = useState<Selection>(null);
  const t = useT();
  const errorText = useErrorText();
  if (error && !data) return <p role="alert">{errorText(toTransportError(error).code)}</p>;
  if (!data) return <p className="loading">{t('console.configure.sites.loading')}</p>;
  const site = data.sites.find((s) => s.id === selected?.id) ?? null;
  return (
    <section aria-labelledby="sites-title">
      <h2 id="sites-title">{t('console.configure.sites.title')}</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('console.configure.sites.columnName')}</th>
              <th scope="col">{t('console.configure.sites.columnUrl')}</th>
              <th scope="col">{t('console.configure.sites.columnOrigins')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('console.configure.columnActions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.sites.map((s) => (
              <tr key={s.id} aria-current={s.id === selected?.id ? 'true' : undefined}>
                <th scope="row">{s.name}</th>
                <td className="wrap">{s.url}</td>
                <td className="wrap">{s.allowedOrigins.join(', ')}</td>
                <td>
                  <button
                    type="button"
                    aria-expanded={s.id === selected?.id}
                    onClick={() =>
                      setSelected(s.id === selected?.id ? null : { id: s.id, secret: null })
                    }
                  >
                    {t('console.configure.sites.edit')}
                    <span className="visually-hidden"> {s.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" onClick={() => setSelected({ id: 'new', secret: null })}>
        {t('console.configure.sites.add')}
      </button>
      {selected !== null && (
        <section
          aria-label={
            site
              ? t('console.configure.sites.settingsOf', { name: site.name })
              : t('console.configure.site.new')
          }
          className="panel"
        >
          <h3>{site ? site.name : t('console.configure.site.new')}</h3>
          {site === null && selected.id !== 'new' ? (
            // Just created: the list is being fetched again (the mutation invalidated it).
            <p className="loading">{t('console.configure.sites.loadingNew')}</p>
          ) : (
            <SiteEditor
              // A fresh editor per site: its draft starts from that site.
              key={site?.id ?? 'new'}
              site={site}
              freshSecret={selected.secret}
              onCreated={(created, secret) => setSelected({ id: created.id, secret })}
            />
          )}
        </section>
      )}
    </section>
  );
}
