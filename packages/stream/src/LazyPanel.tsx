import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { useStreamEnv } from './StreamContext';

/** A module that a tab loads on demand: it exports `Panel`. */
export interface PanelModule {
  Panel: ComponentType;
}

/**
 * Renders a code-split panel (profile, configure): its code is fetched on first open, so readers
 * who never open it never download it. A failed load offers a retry instead of a blank tab.
 */
export function LazyPanel({ load }: { load: () => Promise<PanelModule> }) {
  const { t } = useStreamEnv();
  const [state, setState] = useState<{ Panel?: ComponentType; failed?: boolean }>({});
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (module) => live && setState({ Panel: module.Panel }),
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
