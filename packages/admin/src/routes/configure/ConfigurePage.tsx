import type { ComponentType } from 'react';
import { useQuery } from 'urql';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
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

/** The sections of Configure: path under `/configure`, title, and the form. */
export const CONFIGURE_SECTIONS: readonly {
  path: string;
  title: string;
  Section: ComponentType<{ settings: ConsoleSettings }>;
}[] = [
  { path: 'general', title: 'General', Section: GeneralSettings },
  { path: 'moderation', title: 'Moderation', Section: ModerationSettings },
  { path: 'organization', title: 'Organization and sites', Section: OrganizationSettings },
  { path: 'authentication', title: 'Authentication', Section: AuthenticationSettings },
  { path: 'email', title: 'Email', Section: EmailSettings },
  { path: 'api-tokens', title: 'API tokens', Section: ApiTokenSettings },
  { path: 'webhooks', title: 'Webhooks', Section: WebhookSettings },
  { path: 'import-export', title: 'Import and export', Section: ImportExportSettings },
  { path: 'advanced', title: 'Advanced', Section: AdvancedSettings },
];

/**
 * `/admin/configure/*` (admins only; SignedInArea routes others away): a side nav of sections,
 * each its own form with its own Save, so a change in one never sends another's fields.
 */
export function ConfigurePage() {
  const [location] = useLocation();
  const [{ data, error }] = useQuery({ query: SETTINGS_QUERY });
  return (
    <div className="page admin-page configure">
      <nav aria-label="Configure sections" className="side-nav">
        <ul>
          {CONFIGURE_SECTIONS.map(({ path, title }) => {
            const href = `/configure/${path}`;
            return (
              <li key={path}>
                <Link href={href} aria-current={location === href ? 'page' : undefined}>
                  {title}
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
              <h1 id="configure-title">{title}</h1>
              {error && !data ? (
                <p role="alert">{errorText(toTransportError(error).code)}</p>
              ) : !data ? (
                <p className="loading">Loading…</p>
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
