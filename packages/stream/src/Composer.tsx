// Placeholder until the composer lands (same change set).
export function Composer(_props: { storyId: string; parentId: string | null }) {
  return <div class="parley-composer" />;
}
