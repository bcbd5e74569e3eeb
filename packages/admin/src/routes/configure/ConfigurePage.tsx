import type { ComponentType } from 'react';
import { useQuery } from 'urql';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { toTransportError } from '@parley/transport';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { AdvancedSettings } from './AdvancedSettings';
import { ApiTokenSettings } from './ApiTokenSettings';
import { AuthenticationSettings } from './AuthenticationSettings';
import { SETTINGS_QUERY } from './configureQueries';
import type { ConsoleSettings } from './configureQueries';
import { EmailSettings } from './EmailSettings';
import { GeneralSettings } from './GeneralSettings';
import { ImportExportSettings } from './ImportExportSettings';
import { ModerationSettings } from './ModerationSettings';
import { OrganizationSettings } from './OrganizationSettings';
import { WebhookSettings } from './WebhookSettings';

/** The sections of Configure: path under `/configure`, title (a catalog key), and the form. */
export const CONFIGURE_SECTIONS: readonly {
  path: string;
  title: ConsoleMessageKey;
  Section: ComponentType<{ settings: ConsoleSettings }>;
}[] = [
  { path: 'general', title: 'console.configure.section.general', Section: GeneralSettings },
  {
    path: 'moderation',
    title: 'console.configure.section.moderation',
    Section: ModerationSettings,
  },
  {
    path: 'organization',
    title: 'console.configure.section.organization',
    Section: OrganizationSettings,
  },
  {
    path: 'authentication',
    title: 'console.configure.section.authentication',
    Section: AuthenticationSettings,
  },
  { path: 'email', title: 'console.configure.section.email', Section: EmailSettings },
  { path: 'api-tokens', title: 'console.configure.section.apiTokens', Section: ApiTokenSettings },
  { path: 'webhooks', title: 'console.configure.section.webhooks', Section: WebhookSettings },
  {
    path: 'import-export',
    title: 'console.configure.section.importExport',
    Section: ImportExportSettings,
  },
  { path: 'advanced', title: 'console.configure.section.advanced', Section: AdvancedSettings },
];

/**
 * `/admin/configure/*` (admins only; SignedInArea routes others away): a side nav of sections,
 * each its own form with its own Save, so a change in one never sends another's fields.
 */
export function ConfigurePage() {
  const [location] = useLocation();
  const [{ data, error }] = useQuery({ query: SETTINGS_QUERY });
  const t = useT();
  const errorText = useErrorText();
  return (
    <div className="page admin-page configure">
      <nav aria-label={t('console.configure.nav')} className="side-nav">
        <ul>
          {CONFIGURE_SECTIONS.map(({ path, title }) => {
            const href = `/configure/${path}`;
            return (
              <li key={path}>
                <Link href={href} aria-current={location === href ? 'page' : undefined}>
                  {t(title)}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main>
        <Switch>
          {CONFIGURE_SECTIONS.map(({ path, title, Section }) => (
            <Route key={path} path={`/configure/${path}`}>
              <h1 id="configure-title">{t(title)}</h1>
              {error && !data ? (
                <p role="alert">{errorText(toTransportError(error).code)}</p>
              ) : !data ? (
                <p className="loading">{t('console.configure.loading')}</p>
              ) : (
                <Section settings={data.settings} />
              )}
            </Route>
          ))}
          <Route>
            <Redirect to="/configure/general" replace />
          </Route>
        </Switch>
      </main>
    </div>
  );
}
