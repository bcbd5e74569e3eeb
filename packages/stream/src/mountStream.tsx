import { hydrate, render } from 'preact';
import { createSessionTransport } from '@parley/transport';
import type { TransportOptions } from '@parley/transport';
import { App } from './App';
import { TOKEN_STORAGE_KEY } from './createSession';
import { createThreadStore } from './createThreadStore';
import { createHostBridge } from './hostBridge';
import { createTranslator } from './i18n/createTranslator';
import { loadCatalog } from './messages';
import type { FirstMessageKey, LazyMessageKey } from './messages';
import { readStreamParams } from './params';
import type { StreamEnv } from './StreamContext';
import { applyTheme } from './applyTheme';
import { setDocumentLanguage } from './i18n/createTranslator';
import { listenForHostSso } from './auth/listenForHostSso';

/** Options of {@link mountStream}. */
export interface MountStreamOptions {
  /** The frame's window. */
  window: Window;
  /** Element to render into. */
  root: HTMLElement;
  /** Transport options beyond the URL (tests inject fetch and WebSocket). */
  transport?: Omit<TransportOptions, 'url' | 'getToken'>;
}

/**
 * Starts the stream inside its frame: reads the loader's parameters, creates the transport,
 * session and host bridge, reports the content height, follows the host's theme, and renders.
 * Returns the disposer, which undoes everything the mount did.
 */
export function mountStream({ window: win, root, transport: options }: MountStreamOptions) {
  const doc = win.document;
  // The server rendered the thread (ssr.tsx) with this answer: hydrate what is on the page. Its
  // settings name the site's locale, which the page was rendered in.
  const rendered = doc.getElementById('parley-data')?.textContent;
  const initial: StreamEnv['initial'] = rendered ? JSON.parse(rendered) : undefined;
  const params = readStreamParams(win.location.search, initial?.settings?.locale);
  const { transport, session } = createSessionTransport(
    { url: `${win.location.origin}/graphql`, persisted: true, ...options },
    TOKEN_STORAGE_KEY,
  );
  const bridge = createHostBridge({ window: win, origin: params.origin });
  setDocumentLanguage(doc, params.locale);
  applyTheme(doc, { theme: params.theme });
  const offTheme = bridge.on('theme', (theme) => applyTheme(doc, theme));

  // Custom CSS from the site owner, only over http(s).
  // Only in a frame of a permitted host (frame-ancestors vouches for who chose it): a link to the
  // frame opened directly must not restyle it with anyone's stylesheet.
  if (
    params.origin !== '' &&
    win.parent !== win &&
    params.customCSSURL &&
    /^https?:/.test(params.customCSSURL)
  ) {
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = params.customCSSURL;
    doc.head.append(link);
  }

  // The loader sizes the iframe to the content, so the frame never scrolls on its own.
  let lastHeight = -1;
  const observer = new ResizeObserver(() => {
    const height = Math.ceil(doc.documentElement.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    bridge.send('height', { height });
  });
  observer.observe(doc.documentElement);

  let disposed = false;
  // The host answers `ready` with its SSO `login` while the first query is still running, before
  // the sign-in bar exists: the listener starts with the frame, not with a component.
  let stopSso = () => {};
  void loadCatalog(params.locale).then((catalog) => {
    if (disposed) return;
    const t = createTranslator<FirstMessageKey, LazyMessageKey>(params.locale, catalog);
    const env: StreamEnv = {
      transport,
      params,
      bridge,
      session,
      t,
      window: win,
      thread: createThreadStore(),
      initial,
    };
    stopSso = listenForHostSso(env);
    (initial ? hydrate : render)(<App env={env} />, root);
    root.inert = false;
    // A single-page host went to another article: its thread, in this frame (the connection,
    // the session and the loaded code stay), as a fresh App with nothing of the last story. Its
    // listener goes with the bridge's (dispose).
    // Exactly the story's four parameters: one left out is none (never the last story's).
    bridge.on('story', ({ storyURL, storyID, storyTitle, commentID }) =>
      render(
        <App
          key={storyURL + storyID + commentID}
          env={{
            ...env,
            params: { ...params, storyURL, storyID, storyTitle, commentID },
            thread: createThreadStore(),
            initial: undefined,
          }}
        />,
        root,
      ),
    );
    // The iframe's name for screen readers, in the thread's language (the loader says "Comments").
    bridge.send('ready', { title: t('stream.label') });
  });

  return () => {
    disposed = true;
    stopSso();
    render(null, root);
    observer.disconnect();
    offTheme();
    bridge.dispose();
    void transport.dispose();
  };
}
