import { useState } from 'react';
import { useConsoleEnv } from '../../ConsoleContext';
import { useT } from '../../i18n';

/** A button ("Copy" unless `label` says otherwise) that copies `text` and says whether it worked. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { window: win } = useConsoleEnv();
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copy() {
    try {
      // The injected window's clipboard (ConsoleContext): tests and frames provide their own.
      await win.navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard (insecure origin, permission denied): the text stays selectable on screen.
      setState('failed');
    }
  }

  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label ?? t('console.configure.copy')}
      </button>
      <span aria-live="polite" className="hint">
        {state === 'copied'
          ? t('console.configure.copied')
          : state === 'failed'
            ? t('console.configure.copyFailed')
            : ''}
      </span>
    </>
  );
}
