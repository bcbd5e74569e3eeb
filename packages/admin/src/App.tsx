import { Suspense } from 'react';
import { Provider, useQuery } from 'urql';
import { Redirect, Route, Switch } from 'wouter';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { ConsoleEnvContext } from './ConsoleContext';
import type { ConsoleEnv } from './ConsoleContext';
import { Loading } from './Loading';
import { SignedInArea } from './SignedInArea';
import { useErrorText } from './errorText';
import { useT } from './i18n';
import { lazyRoute } from './lazyRoute';

const InstallWizard = lazyRoute(() => import('./routes/install/InstallWizard'), 'InstallWizard');
const LoginPage = lazyRoute(() => import('./routes/login/LoginPage'), 'LoginPage');
const AccountPage = lazyRoute(() => import('./routes/account/AccountPage'), 'AccountPage');

/** Whether the install wizard has run decides where every console URL leads. */
export const INSTALLED_QUERY = graphql(`query ConsoleInstalled { settings { installed } }`);

/** The whole console: providers and the top-level routes. */
export function App({ env }: { env: ConsoleEnv }) {
  return (
    <ConsoleEnvContext.Provider value={env}>
      <Provider value={env.transport.client}>
        <Suspense fallback={<Loading />}>
          <TopRoutes />
        </Suspense>
      </Provider>
    </ConsoleEnvContext.Provider>
  );
}

function TopRoutes() {
  const [{ data, error }, reexecute] = useQuery({
    query: INSTALLED_QUERY,
    requestPolicy: 'network-only',
  });
  const t = useT();
  const errorText = useErrorText();
  if (error && !data) {
    return (
      <main className="page narrow">
        <h1>Parley</h1>
        <p role="alert">{errorText(toTransportError(error).code)}</p>
        <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
          {t('console.shell.retry')}
        </button>
      </main>
    );
  }
  if (!data) return <Loading />;
  const { installed } = data.settings;
  return (
    <Switch>
      <Route path="/install">
        {installed ? <Redirect to="/admin" replace /> : <InstallWizard />}
      </Route>
      <Route path="/account/*?">
        <AccountPage />
      </Route>
      {!installed && (
        <Route>
          <Redirect to="/install" replace />
        </Route>
      )}
      <Route path="/admin/login">
        <LoginPage />
      </Route>
      <Route path="/admin" nest>
        <SignedInArea />
      </Route>
      <Route>
        <Redirect to="/admin" replace />
      </Route>
    </Switch>
  );
}
