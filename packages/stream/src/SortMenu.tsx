import { useStreamEnv } from './StreamContext';
import type { CommentSort } from './Thread';

/** The sorts the menu offers, in order. */
export const COMMENT_SORTS: readonly CommentSort[] = [
  'CREATED_AT_DESC',
  'CREATED_AT_ASC',
  'REPLIES_DESC',
  'REACTIONS_DESC',
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
  return (
    <label class="parley-sort">
      {t('thread.sortBy')}{' '}
      <select value={sort} onChange={(event) => onChange(event.currentTarget.value as CommentSort)}>
        {COMMENT_SORTS.map((value) => (
          <option key={value} value={value}>
            {t(`thread.sort.${value}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
