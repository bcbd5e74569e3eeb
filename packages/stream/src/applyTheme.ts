import type { HostToFrame } from '@parley/contract';

/** Font families the host may pass: names, quotes, commas and spaces only (no `url(` or `;`). */
export const SAFE_FONT = /^[\w\s"',.-]{1,200}$/;

/** A color the host may pass: hex, rgb()/hsl() or a name. */
export const SAFE_COLOR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%/]+\)|[a-z]{3,20})$/i;

/**
 * Applies the host's theme: `data-theme` on the root (the stylesheet has both palettes) and the
 * host's font and accent as CSS custom properties. Values that could smuggle CSS are ignored.
 */
export function applyTheme(doc: Document, theme: Partial<HostToFrame['theme']>): void {
  const root = doc.documentElement;
  if (theme.theme) {
    root.dataset.theme = theme.theme;
    root.style.colorScheme = theme.theme;
  }
  if (theme.fontFamily && SAFE_FONT.test(theme.fontFamily)) {
    root.style.setProperty('--parley-font', theme.fontFamily);
  }
  if (theme.accentColor && SAFE_COLOR.test(theme.accentColor)) {
    root.style.setProperty('--parley-accent', theme.accentColor);
  }
}
