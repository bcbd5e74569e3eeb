import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { CREATE_SITE_MUTATION, splitLines, UPDATE_SITE_MUTATION } from './configureQueries';
import type { AdminSite } from './configureQueries';
import { CopyButton } from './CopyButton';
import { freshSecretOf, SsoKeys } from './SsoKeys';
import type { FreshSecret } from './SsoKeys';
import { useUnsavedChangesGuard } from './useUnsavedChangesGuard';

type Draft = { name: string; url: string; allowedOrigins: string; ssoLifetimeHours: string };
type Field = keyof Draft;

const SECONDS_PER_HOUR = 3600;

const draftOf = (site: AdminSite | null): Draft => ({
  name: site?.name ?? '',
  url: site?.url ?? '',
  allowedOrigins: site?.allowedOrigins.join('\n') ?? '',
  ssoLifetimeHours:
    site?.ssoTokenMaxLifetimeSeconds == null
      ? ''
      : String(site.ssoTokenMaxLifetimeSeconds / SECONDS_PER_HOUR),
});

/** The server's field names that are not the draft's. */
const SERVER_FIELDS: Record<string, Field> = { ssoTokenMaxLifetimeSeconds: 'ssoLifetimeHours' };

/** Hours as typed → seconds; empty is null (the default), anything unreadable NaN (refused). */
function lifetimeSeconds(hours: string): number | null {
  const text = hours.trim();
  return text === '' ? null : Math.round(Number(text) * SECONDS_PER_HOUR);
}

/**
 * One site: name, URL, permitted origins (one per line), its embed and latest-comments snippets
 * and its SSO keys; or, with no `site`, the form that adds one (`onCreated` gets it and its
 * first key's secret).
 */
export function SiteEditor({
  site,
  onCreated,
  freshSecret,
}: {
  site: AdminSite | null;
  onCreated: (site: AdminSite, secret: FreshSecret | null) => void;
  /** The secret of a key created with the site, shown once. */
  freshSecret?: FreshSecret | null;
}) {
  const { window: win } = useConsoleEnv();
  const t = useT();
  const errorText = useErrorText();
  const [baseline, setBaseline] = useState(() => draftOf(site));
  const [draft, setDraft] = useState(baseline);
  const [error, setError] = useState<{ field: Field | undefined; text: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const [updating, update] = useMutation(UPDATE_SITE_MUTATION);
  const [creating, create] = useMutation(CREATE_SITE_MUTATION);
  const dirty = JSON.stringify(draft) !== JSON.stringify(baseline);
  useUnsavedChangesGuard(dirty);
  const prefix = `site-${site?.id ?? 'new'}`;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSaved(false);
    if (Number.isNaN(lifetimeSeconds(draft.ssoLifetimeHours))) {
      // JSON would send NaN as null (the default): say so instead of saving something else.
      setError({ field: 'ssoLifetimeHours', text: t('console.configure.site.lifetimeInvalid') });
      win.document.getElementById(`${prefix}-ssoLifetimeHours`)?.focus();
      return;
    }
    const fields = {
      name: draft.name,
      url: draft.url,
      allowedOrigins: splitLines(draft.allowedOrigins),
    };
    const result = site
      ? await update({
          input: {
            siteId: site.id,
            ...fields,
            ssoTokenMaxLifetimeSeconds: lifetimeSeconds(draft.ssoLifetimeHours),
          },
        })
      : await create({ input: fields });
    const stored =
      result.data &&
      ('updateSite' in result.data ? result.data.updateSite.site : result.data.createSite.site);
    if (result.error) {
      const err = toTransportError(result.error);
      // `allowedOrigins.2` is the third line of the origins field.
      const name = err.field?.split('.')[0];
      const field =
        name === undefined
          ? undefined
          : (SERVER_FIELDS[name] ?? (name in draft ? (name as Field) : undefined));
      setError({ field, text: errorText(err.code) });
      if (field) win.document.getElementById(`${prefix}-${field}`)?.focus();
      return;
    }
    if (!stored) {
      setError({ field: undefined, text: errorText('BAD_RESPONSE') });
      return;
    }
    const next = draftOf(stored);
    setBaseline(next);
    setDraft(next);
    setSaved(true);
    if (!site) onCreated(stored, freshSecretOf(stored));
  }

  function field(name: Field, label: string, hint?: string) {
    const id = `${prefix}-${name}`;
    const message = error?.field === name ? error.text : null;
    const props = {
      id,
      value: draft[name],
      'aria-invalid': message !== null,
      'aria-describedby':
        [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ') ||
        undefined,
      onChange: (e: { target: { value: string } }) => {
        setSaved(false);
        setDraft({ ...draft, [name]: e.target.value });
      },
    };
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {name === 'allowedOrigins' ? <textarea rows={4} {...props} /> : <input {...props} />}
        {hint && (
          <p id={`${id}-hint`} className="hint">
            {hint}
          </p>
        )}
        {message && (
          <p id={`${id}-error`} className="field-error">
            {message}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="site-editor">
      <form
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={
          site
            ? t('console.configure.site.formLabel', { name: site.name })
            : t('console.configure.site.new')
        }
      >
        {field('name', t('console.configure.site.name'))}
        {field('url', t('console.configure.site.url'))}
        {field(
          'allowedOrigins',
          t('console.configure.site.origins'),
          t('console.configure.site.originsHint'),
        )}
        {site &&
          field(
            'ssoLifetimeHours',
            t('console.configure.site.ssoLifetime'),
            t('console.configure.site.ssoLifetimeHint'),
          )}
        <div className="form-footer">
          <button
            type="submit"
            className="primary"
            disabled={updating.fetching || creating.fetching}
          >
            {site ? t('console.configure.site.save') : t('console.configure.site.add')}
          </button>
          <span role="status" className="success">
            {saved ? t('console.configure.saved') : ''}
          </span>
          {error !== null && (
            <p role="alert">{t('console.configure.notSaved', { error: error.text })}</p>
          )}
        </div>
      </form>
      {site && (
        <>
          <h3>{t('console.configure.site.embedTitle')}</h3>
          <p className="hint">{t('console.configure.site.embedHint')}</p>
          <pre className="snippet">
            <code>{site.embedSnippet}</code>
          </pre>
          <CopyButton text={site.embedSnippet} label={t('console.configure.site.embedCopy')} />
          <h3>{t('console.configure.site.recentTitle')}</h3>
          <p className="hint">
            {t('console.configure.site.recentHint.before')}
            <code>data-count</code>
            {t('console.configure.site.recentHint.middle')}
            <code>parley-recent-…</code>
            {t('console.configure.site.recentHint.after')}
          </p>
          <pre className="snippet">
            <code>{site.recentSnippet}</code>
          </pre>
          <CopyButton text={site.recentSnippet} label={t('console.configure.site.recentCopy')} />
          <SsoKeys site={site} initial={freshSecret ?? null} />
        </>
      )}
    </div>
  );
}
