/** @jsxImportSource react */
// The React example: a small single-page app with two articles on two routes (wouter), each
// with its thread (`<ParleyThread>`), a list with comment counts (`<ParleyCount>`), and the host's
// own sign-in passed as an SSO token (`accessToken`). Navigating between the articles switches the
// thread in place: the frame stays, its connection and its reader's session with it.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Link, Route, Router, Switch, useLocation } from 'wouter';
import { ParleyCount, ParleyThread } from '@parley/react';

/** The app's articles, under `/app`. */
const ARTICLES = [
  { path: '/', title: 'The first article of the app' },
  { path: '/second', title: 'The second article of the app' },
];

const element = document.getElementById('app') as HTMLElement;
const parleyUrl = element.dataset.parleyUrl as string;
const storyUrl = (path: string) => `${location.origin}/app${path === '/' ? '/' : path}`;

function Article({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <article>
      <h1>{title}</h1>
      <p>This article is a route of a React app; its comments come from Parley, below.</p>
    </article>
  );
}

/**
 * The thread of the route shown, in the app's layout (not in each route): it stays mounted as
 * the reader moves between articles, and follows them.
 */
function Comments({ token }: { token?: string }) {
  const [path] = useLocation();
  return <ParleyThread rootURL={parleyUrl} storyURL={storyUrl(path)} accessToken={token} />;
}

function App() {
  const [token, setToken] = useState<string>();
  // The host's own sign-in: the example server signs an SSO token for its reader.
  const signIn = async () => setToken(await (await fetch('/sso/token')).text());
  return (
    <Router base="/app">
      <nav>
        {ARTICLES.map((article) => (
          <span key={article.path}>
            <Link href={article.path}>{article.title}</Link> (
            <ParleyCount rootURL={parleyUrl} storyURL={storyUrl(article.path)} />){' · '}
          </span>
        ))}
        {token ? (
          <button type="button" onClick={() => setToken(undefined)}>
            Sign out of the app
          </button>
        ) : (
          <button type="button" onClick={() => void signIn()}>
            Sign in to the app
          </button>
        )}
      </nav>
      <Switch>
        {ARTICLES.map((article) => (
          <Route key={article.path} path={article.path}>
            <Article title={article.title} />
          </Route>
        ))}
      </Switch>
      <Comments token={token} />
    </Router>
  );
}

createRoot(element).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
