import { useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
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
  return (
    <>
      <form onSubmit={form.submit} noValidate aria-labelledby="configure-title">
        <fieldset>
          <legend>Organization</legend>
          <TextField form={form} name="name" label="Name" autoComplete="organization" />
          <TextField form={form} name="contactEmail" label="Contact email" type="email" />
          <TextField form={form} name="url" label="URL" type="url" />
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
  if (error && !data) return <p role="alert">{errorText(toTransportError(error).code)}</p>;
  if (!data) return <p className="loading">Loading sites…</p>;
  const site = data.sites.find((s) => s.id === selected?.id) ?? null;
  return (
    <section aria-labelledby="sites-title">
      <h2 id="sites-title">Sites</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">URL</th>
              <th scope="col">Permitted origins</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
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
                    Edit<span className="visually-hidden"> {s.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" onClick={() => setSelected({ id: 'new', secret: null })}>
        Add a site
      </button>
      {selected !== null && (
        <section aria-label={site ? `Settings of ${site.name}` : 'New site'} className="panel">
          <h3>{site ? site.name : 'New site'}</h3>
          {site === null && selected.id !== 'new' ? (
            // Just created: the list is being fetched again (the mutation invalidated it).
            <p className="loading">Loading the new site…</p>
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
