import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { loadStylesheet, PANELS_STYLESHEET } from './loadStylesheet';
import { withMessages } from './messages';
import type { AnyMessagesPart } from './messages';
import { useStreamEnv } from './StreamContext';

/** A module that a tab loads on demand: it exports `Panel` and the text of its area. */
export interface PanelModule {
  /** The tab's content. */
  Panel: ComponentType;
  /** Its text, added to the catalog before it renders (as is panels.css, its rules). */
  messages: AnyMessagesPart;
}

/**
 * Renders a code-split panel (profile, configure): its code is fetched on first open, so readers
 * who never open it never download it. A failed load offers a retry instead of a blank tab.
 */
export function LazyPanel({ load }: { load: () => Promise<PanelModule> }) {
  const env = useStreamEnv();
  const { t } = env;
  const [state, setState] = useState<{ Panel?: ComponentType; failed?: boolean }>({});
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (module) =>
        Promise.all([
          withMessages(env, module.messages),
          loadStylesheet(env.window.document, PANELS_STYLESHEET),
        ]).then(() => live && setState({ Panel: module.Panel })),
      () => live && setState({ failed: true }),
    );
    return () => {
      live = false;
    };
    // `load` is a new arrow on every render of the parent; the attempt counter drives reloads.
  }, [attempt]);
  if (state.failed) {
    return (
      <div class="parley-notice" role="alert">
        <p>{t('stream.loadFailed')}</p>
        <button type="button" onClick={() => (setState({}), setAttempt((n) => n + 1))}>
          {t('stream.retry')}
        </button>
      </div>
    );
  }
  if (!state.Panel) return <p role="status">{t('stream.loading')}</p>;
  return <state.Panel />;
}
