import { useState } from 'react';
import { useQuery } from 'urql';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { CursorTable } from '../CursorTable';
import { FilterSelect, SearchField } from '../FilterFields';
import { useDebouncedValue } from '../community/useDebouncedValue';
import { SITE_OPTIONS_QUERY, STORIES_PAGE_SIZE, STORIES_QUERY } from './storiesQueries';
import type { StoriesVariables, StoryStatus } from './storiesQueries';
import { STORY_COLUMNS, StoryRow } from './StoryRow';

type Filters = Omit<StoriesVariables, 'after' | 'first'>;

/** The status filter's values, with the catalog keys of their words. */
const STATUS_OPTIONS: readonly { value: StoryStatus; label: ConsoleMessageKey }[] = [
  { value: 'OPEN', label: 'console.stories.status.OPEN' },
  { value: 'CLOSED', label: 'console.stories.status.CLOSED' },
];

/** `/admin/stories`: stories with their counts, open/close and per-story overrides. */
export function StoriesPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StoryStatus | ''>('');
  const [siteId, setSiteId] = useState('');
  const [{ data: sites }] = useQuery({ query: SITE_OPTIONS_QUERY });
  const query = useDebouncedValue(search.trim());
  const t = useT();
  const filters: Filters = {
    query: query === '' ? null : query,
    status: status === '' ? null : status,
    siteId: siteId === '' ? null : siteId,
  };
  return (
    <main className="page admin-page">
      <h1>{t('console.stories.title')}</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <SearchField
          id="stories-search"
          placeholder={t('console.stories.search')}
          value={search}
          onChange={setSearch}
        />
        <FilterSelect
          id="stories-status"
          label={t('console.stories.status')}
          all={t('console.stories.allStatuses')}
          options={STATUS_OPTIONS.map(({ value, label }) => ({ value, label: t(label) }))}
          value={status}
          onChange={setStatus}
        />
        <FilterSelect
          id="stories-site"
          label={t('console.stories.site')}
          all={t('console.stories.allSites')}
          options={sites?.sites.map((site) => ({ value: site.id, label: site.name })) ?? []}
          value={siteId}
          onChange={setSiteId}
        />
      </form>
      <StoryTable key={JSON.stringify(filters)} filters={filters} />
    </main>
  );
}

function StoryTable({ filters }: { filters: Filters }) {
  const t = useT();
  return (
    <CursorTable
      caption={t('console.stories.caption')}
      head={
        <>
          <th scope="col">{t('console.stories.col.title')}</th>
          <th scope="col">{t('console.stories.col.site')}</th>
          <th scope="col">{t('console.stories.col.status')}</th>
          <th scope="col">
            <abbr title={t('console.stories.col.comments.title')}>
              {t('console.stories.col.comments')}
            </abbr>
            <span className="hint"> {t('console.stories.col.comments.hint')}</span>
          </th>
          <th scope="col">{t('console.stories.col.openClose')}</th>
          <th scope="col">{t('console.stories.col.premod')}</th>
          <th scope="col">{t('console.stories.col.liveUpdates')}</th>
        </>
      }
      columns={STORY_COLUMNS}
      query={STORIES_QUERY}
      filters={filters}
      pageSize={STORIES_PAGE_SIZE}
      connection={(data) => data.stories}
      empty={t('console.stories.empty')}
      row={(node) => <StoryRow key={node.id} story={node} />}
    />
  );
}
