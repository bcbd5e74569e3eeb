import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** One part of a panel (profile, configure): a region named by its heading, so screen readers can jump to it. */
export function PanelSection({ title, children }: { title: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="parley-profile-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
