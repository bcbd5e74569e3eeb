import { useStreamData, useStreamEnv } from './StreamContext';
import type { CommentSort } from './Thread';

/** The sorts, in the menu's order (the loader's `sort` takes any). */
export const COMMENT_SORTS: readonly CommentSort[] = [
  'CREATED_AT_DESC',
  'CREATED_AT_ASC',
  'REPLIES_DESC',
  'REACTIONS_DESC',
  'BEST',
];

/** The labelled "Sort by" select of the thread. */
export function SortMenu({
  sort,
  onChange,
}: {
  sort: CommentSort;
  onChange(sort: CommentSort): void;
}) {
  const { t } = useStreamEnv();
  const { settings } = useStreamData();
  // "Most reactions" with likes only; "Best" (which weighs down votes) with up and down votes.
  const hidden = settings.voting === 'UP_DOWN' ? 'REACTIONS_DESC' : 'BEST';
  // …unless the site's `sort` asked for it: the menu always names the order shown.
  const sorts = COMMENT_SORTS.filter((value) => value !== hidden || value === sort);
  return (
    <label class="parley-sort">
      {t('thread.sortBy')}{' '}
      <select value={sort} onChange={(event) => onChange(event.currentTarget.value as CommentSort)}>
        {sorts.map((value) => (
          <option key={value} value={value}>
            {t(`thread.sort.${value}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
