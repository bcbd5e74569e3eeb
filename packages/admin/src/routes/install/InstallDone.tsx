import { useRef, useState } from 'react';
import type { RefObject } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { useConsoleEnv } from '../../ConsoleContext';
import { Loading } from '../../Loading';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';

/**
 * The new site's embed snippet. Asked after install (the `install` payload has no site), with
 * the admin's fresh session: `sites` is for moderators and admins.
 */
export const INSTALL_SNIPPET_QUERY = graphql(
  `query ConsoleInstallSnippet { sites { id embedSnippet } }`,
);

/** The wizard's last step: the embed snippet to copy, and where to go next. */
export function InstallDone({
  headingRef,
  siteUrl,
  exampleOrigin,
}: {
  /** Receives focus when this step appears. */
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** The first site's URL, as typed. */
  siteUrl: string;
  /** The example host page's origin when the console runs locally, else null. */
  exampleOrigin: string | null;
}) {
  const [{ data, error }, reexecute] = useQuery({
    query: INSTALL_SNIPPET_QUERY,
    requestPolicy: 'network-only',
  });
  const snippet = data?.sites[0]?.embedSnippet;
  const t = useT();
  const errorText = useErrorText();

  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        {t('console.install.done.title')}
      </h1>
      <p className="success">{t('console.install.done.signedIn')}</p>
      <h2>{t('console.install.done.addComments')}</h2>
      <p>
        {siteUrl
          ? t('console.install.done.paste', { site: siteUrl })
          : t('console.install.done.pasteYourSite')}
      </p>
      {snippet !== undefined ? (
        <Snippet snippet={snippet} />
      ) : error && !data ? (
        <>
          <p role="alert">{errorText(toTransportError(error).code)}</p>
          <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
            {t('console.shell.retry')}
          </button>
        </>
      ) : (
        <Loading>{t('console.install.done.loadingSnippet')}</Loading>
      )}
      <h2>{t('console.install.done.next')}</h2>
      <ul className="next-links">
        <li>
          {/* A full page load, not a router link: the app still holds "not installed" from
              before the wizard ran, and would send /admin straight back here. */}
          <a href="/admin">{t('console.install.done.openConsole')}</a>
        </li>
        {exampleOrigin !== null && (
          <li>
            <a href={`${exampleOrigin}/`}>{t('console.install.done.openExample.link')}</a>{' '}
            {t('console.install.done.openExample.after')}
          </li>
        )}
      </ul>
    </>
  );
}

function Snippet({ snippet }: { snippet: string }) {
  const { window: win } = useConsoleEnv();
  const text = useRef<HTMLTextAreaElement>(null);
  const [status, setStatus] = useState('');
  const t = useT();

  async function copy() {
    setStatus('');
    try {
      // Undefined on insecure origins (plain http other than localhost) and in old browsers.
      const clipboard = win.navigator.clipboard as Clipboard | undefined;
      if (clipboard === undefined) throw new Error('no clipboard');
      await clipboard.writeText(snippet);
      setStatus(t('console.install.snippet.copied'));
    } catch {
      // Permission denied or no clipboard API: select the text so one key press copies it.
      text.current?.focus();
      text.current?.select();
      setStatus(t('console.install.snippet.selected'));
    }
  }

  return (
    <div className="install-snippet">
      <label htmlFor="install-snippet">{t('console.install.snippet.label')}</label>
      <textarea
        id="install-snippet"
        ref={text}
        readOnly
        value={snippet}
        rows={Math.min(8, snippet.split('\n').length + 1)}
        spellCheck={false}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          {t('console.install.snippet.copy')}
        </button>
        {/* Always present, so screen readers announce the status when it changes. */}
        <span role="status" className="copy-status">
          {status}
        </span>
      </div>
    </div>
  );
}
