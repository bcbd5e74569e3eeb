import { useState } from 'react';
import { useConsoleEnv } from '../../ConsoleContext';

/** A button that copies `text` to the clipboard and says whether it worked. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const { window: win } = useConsoleEnv();
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
        {label}
      </button>
      <span aria-live="polite" className="hint">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Copy failed: select the text.' : ''}
      </span>
    </>
  );
}
