import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { useT } from '../../i18n';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Props of {@link Dialog}. */
export interface DialogProps {
  /** The heading, also the dialog's accessible name. */
  title: string;
  /** Called on Escape and on the close button. */
  onClose: () => void;
  children: ReactNode;
  /** `drawer` slides in from the side (the user drawer). @default 'modal' */
  variant?: 'modal' | 'drawer';
}

/**
 * A modal dialog with a focus trap: focus moves in on open, Tab cycles inside, Escape closes,
 * and focus returns to what had it. Not `<dialog>`: jsdom (the tests) lacks `showModal`, and the
 * queue's keyboard handler must see that a dialog is open (it checks `[aria-modal]`).
 */
export function Dialog({ title, onClose, children, variant = 'modal' }: DialogProps) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const node = ref.current;
    if (!node) return undefined;
    const before = node.ownerDocument.activeElement as HTMLElement | null;
    (node.querySelector<HTMLElement>(FOCUSABLE) ?? node).focus();
    return () => before?.focus?.();
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close.current();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    const active = ref.current.ownerDocument.activeElement;
    if (event.shiftKey && (active === first || active === ref.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="mod-backdrop" onClick={() => close.current()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={variant === 'drawer' ? 'mod-drawer' : 'mod-dialog'}
        onKeyDown={onKeyDown}
        // Clicks inside must not reach the backdrop, which closes.
        onClick={(event) => event.stopPropagation()}
      >
        <div className="mod-dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button
            type="button"
            onClick={() => close.current()}
            aria-label={t('console.moderate.close')}
          >
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
