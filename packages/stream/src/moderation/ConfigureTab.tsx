// Placeholder until the configure tab lands (same change set): the tab's own chunk.
export function Panel() {
  return <div class="parley-configure" />;
}
