import { useEffect } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link, Redirect, Route, Switch } from 'wouter';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { Loading } from './Loading';
import { useConsoleEnv } from './ConsoleContext';
import { useErrorText } from './errorText';
import { CONSOLE_LOCALES, languageName, useI18n, useT } from './i18n';
import type { ConsoleLocale } from './i18n';
import { lazyRoute } from './lazyRoute';
import { NoticeList } from './notices';
import { useSessionToken } from './useSessionToken';
import { ConsoleViewerFields, ViewerContext, isAdmin } from './Viewer';
import type { ConsoleViewer } from './Viewer';

const ModeratePage = lazyRoute(() => import('./routes/moderate/ModeratePage'), 'ModeratePage');
const CommunityPage = lazyRoute(() => import('./routes/community/CommunityPage'), 'CommunityPage');
const StoriesPage = lazyRoute(() => import('./routes/stories/StoriesPage'), 'StoriesPage');
const ConfigurePage = lazyRoute(() => import('./routes/configure/ConfigurePage'), 'ConfigurePage');
const DashboardPage = lazyRoute(() => import('./routes/dashboard/DashboardPage'), 'DashboardPage');
const SecurityPage = lazyRoute(() => import('./routes/security/SecurityPage'), 'SecurityPage');
const AuditLogPage = lazyRoute(() => import('./routes/audit/AuditLogPage'), 'AuditLogPage');
const AlertsPage = lazyRoute(() => import('./routes/alerts/AlertsPage'), 'AlertsPage');

/** The signed-in user, as the console needs them. */
export const CONSOLE_VIEWER_QUERY = graphql(
  `query ConsoleViewer { viewer { ...ConsoleViewerFields } }`,
  [ConsoleViewerFields],
);

/** Everything under `/admin` except the login page: moderators and admins only. */
export function SignedInArea() {
  const token = useSessionToken();
  if (token === null) return <Redirect to="~/admin/login" replace />;
  return <Guarded key={token} />;
}

/** Ends the session on the server (its token is refused from then on), then here. */
export const CONSOLE_SIGN_OUT_MUTATION = graphql(`mutation ConsoleSignOut { signOut { ok } }`);

/** How long sign-out waits for the server before forgetting the token anyway, in ms. */
const SIGN_OUT_WAIT_MS = 3000;

/**
 * Signs out: asks the server to end the session, so a copy of the token (another tab, a shared
 * computer's storage) stops working too, then forgets it. The server's answer is awaited only
 * briefly: offline, forgetting the token here is still what the person asked for.
 */
function useSignOut(): () => Promise<void> {
  const { session } = useConsoleEnv();
  const [, signOut] = useMutation(CONSOLE_SIGN_OUT_MUTATION);
  return async () => {
    await Promise.race([
      signOut({}),
      new Promise((resolve) => setTimeout(resolve, SIGN_OUT_WAIT_MS)),
    ]);
    await session.signOut();
  };
}

/** Codes that mean the stored session ended (expired, revoked, signed out elsewhere). */
const SESSION_ENDED = new Set(['TOKEN_EXPIRED', 'TOKEN_INVALID', 'UNAUTHENTICATED']);

function Guarded() {
  const { session } = useConsoleEnv();
  const signOut = useSignOut();
  const [{ data, error }] = useQuery({
    query: CONSOLE_VIEWER_QUERY,
    requestPolicy: 'network-only',
  });
  const code = error && !data ? toTransportError(error).code : undefined;
  const ended = (code !== undefined && SESSION_ENDED.has(code)) || data?.viewer === null;
  // Signing out changes the session, which re-renders the tree: an effect, not during render.
  useEffect(() => {
    if (ended) void session.signOut();
  }, [ended, session]);
  const t = useT();
  const errorText = useErrorText();
  if (ended) return <Loading />;
  if (code !== undefined) {
    return (
      <main className="page narrow">
        <p role="alert">{errorText(code)}</p>
      </main>
    );
  }
  if (!data?.viewer) return <Loading />;
  const viewer = data.viewer;
  if (viewer.role !== 'MODERATOR' && viewer.role !== 'ADMIN') {
    return (
      <main className="page narrow">
        <h1>{t('console.shell.notModerator.title')}</h1>
        <p role="alert">
          {t('console.shell.notModerator.text', {
            username: viewer.username,
            role: t(`console.shell.role.${viewer.role}`),
          })}
        </p>
        <button type="button" onClick={() => void signOut()}>
          {t('console.shell.signOut')}
        </button>
      </main>
    );
  }
  if (viewer.staffAccess === 'SECOND_FACTOR_NEEDED') {
    return (
      <main className="page narrow">
        <h1>{t('console.shell.secondFactor.title')}</h1>
        <p role="alert">{t('console.shell.secondFactor.text')}</p>
        <button type="button" className="primary" onClick={() => void signOut()}>
          {t('console.shell.secondFactor.submit')}
        </button>
      </main>
    );
  }
  return (
    <ViewerContext.Provider value={viewer}>
      <Layout viewer={viewer} />
    </ViewerContext.Provider>
  );
}

function Layout({ viewer }: { viewer: ConsoleViewer }) {
  const { notices } = useConsoleEnv();
  const signOut = useSignOut();
  const admin = isAdmin(viewer);
  // Required and not set up yet: Security is the one page that works.
  const enrolling = viewer.staffAccess === 'ENROLMENT_NEEDED';
  const t = useT();
  const nav: [string, string][] = enrolling
    ? [['/security', t('console.shell.security')]]
    : [
        ['/moderate', t('console.shell.moderate')],
        ['/community', t('console.shell.community')],
        ['/stories', t('console.shell.stories')],
        ...(admin ? [['/configure', t('console.shell.configure')] as [string, string]] : []),
        ['/dashboard', t('console.shell.dashboard')],
        ...(admin ? [['/audit', t('console.shell.audit')] as [string, string]] : []),
        // Everyone here may moderate (moderators and admins): each chooses their own emails.
        ['/alerts', t('console.shell.alerts')],
        ['/security', t('console.shell.security')],
      ];
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Parley</span>
        <nav aria-label={t('console.shell.nav')}>
          {nav.map(([href, label]) => (
            <Link key={href} href={href} className={(active) => (active ? 'active' : '')}>
              {label}
            </Link>
          ))}
        </nav>
        <span className="who">
          <LanguageSwitch />
          {viewer.username}
          <button type="button" onClick={() => void signOut()}>
            {t('console.shell.signOut')}
          </button>
        </span>
      </header>
      <NoticeList notices={notices} />
      {enrolling ? (
        <Switch>
          <Route path="/security">
            <SecurityPage />
          </Route>
          <Route>
            <Redirect to="/security" replace />
          </Route>
        </Switch>
      ) : (
        <Switch>
          <Route path="/moderate/*?">
            <ModeratePage />
          </Route>
          <Route path="/community">
            <CommunityPage />
          </Route>
          <Route path="/stories">
            <StoriesPage />
          </Route>
          <Route path="/configure/*?">
            {admin ? <ConfigurePage /> : <Redirect to="/moderate" replace />}
          </Route>
          <Route path="/dashboard">
            <DashboardPage />
          </Route>
          <Route path="/security">
            <SecurityPage />
          </Route>
          <Route path="/alerts">
            <AlertsPage />
          </Route>
          <Route path="/audit">
            {admin ? <AuditLogPage /> : <Redirect to="/moderate" replace />}
          </Route>
          <Route>
            <Redirect to="/moderate" replace />
          </Route>
        </Switch>
      )}
    </div>
  );
}

/** Keeps the console's language as the language of the signed-in user's emails. */
export const UPDATE_LOCALE_MUTATION = graphql(`
  mutation ConsoleUpdateLocale($input: UpdateLocaleInput!) {
    updateLocale(input: $input) { user { id } }
  }
`);

/**
 * The header's language switch: each language named in itself; kept in this browser, and as the
 * language of the staff member's emails (alerts, digests), which say so when that fails.
 */
function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  const { notices } = useConsoleEnv();
  const errorText = useErrorText();
  const [, updateLocale] = useMutation(UPDATE_LOCALE_MUTATION);
  if (CONSOLE_LOCALES.length < 2) return null;
  const choose = (next: ConsoleLocale) => {
    setLocale(next);
    void updateLocale({ input: { locale: next } }).then((result) => {
      if (result.error) {
        const reason = errorText(toTransportError(result.error).code);
        notices.add(t('console.shell.emailLanguageFailed', { reason }));
      }
    });
  };
  return (
    <label className="language">
      <span className="visually-hidden">{t('console.shell.language')}</span>
      <select value={locale} onChange={(e) => choose(e.target.value as ConsoleLocale)}>
        {CONSOLE_LOCALES.map((tag) => (
          <option key={tag} value={tag} lang={tag}>
            {languageName(tag)}
          </option>
        ))}
      </select>
    </label>
  );
}
