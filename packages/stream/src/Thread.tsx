import type { CommentSort } from './types';

// Placeholder until the thread lands (same change set).
export function Thread(_props: {
  featured?: boolean;
  sort: CommentSort;
  onSortChange(sort: CommentSort): void;
}) {
  return <div class="parley-thread" />;
}
