import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { CopyButton } from './CopyButton';

/**
 * A secret the server answers once (an SSO key's, an API token's): shown here with a copy button
 * until dismissed. It takes the focus when it appears, so a screen reader reads it out and
 * nobody misses it.
 */
export function SecretShownOnce(props: {
  /** The region's accessible name. */
  label: string;
  /** What to do with it, said above it. */
  children: ReactNode;
  secret: string;
  testId: string;
  copyLabel: string;
  onDismiss(): void;
}) {
  const region = useRef<HTMLDivElement>(null);
  const t = useT();
  useEffect(() => region.current?.focus(), [props.secret]);
  return (
    <div className="secret" role="region" aria-label={props.label} tabIndex={-1} ref={region}>
      <p>{props.children}</p>
      <code data-testid={props.testId}>{props.secret}</code>
      <div className="action-row">
        <CopyButton text={props.secret} label={props.copyLabel} />
        <button type="button" onClick={props.onDismiss}>
          {t('console.configure.secretSaved')}
        </button>
      </div>
    </div>
  );
}
