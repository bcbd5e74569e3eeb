import { useState } from 'react';
import { useQuery } from 'urql';
import { CursorTable } from '../CursorTable';
import { FilterSelect, SearchField } from '../FilterFields';
import { useDebouncedValue } from '../community/useDebouncedValue';
import { SITE_OPTIONS_QUERY, STORIES_PAGE_SIZE, STORIES_QUERY } from './storiesQueries';
import type { StoriesVariables, StoryStatus } from './storiesQueries';
import { STORY_COLUMNS, StoryRow } from './StoryRow';

type Filters = Omit<StoriesVariables, 'after' | 'first'>;

const STATUS_OPTIONS: readonly { value: StoryStatus; label: string }[] = [
  { value: 'OPEN', label: 'Open' },
  { value: 'CLOSED', label: 'Closed' },
];

/** `/admin/stories`: stories with their counts, open/close and per-story overrides. */
export function StoriesPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StoryStatus | ''>('');
  const [siteId, setSiteId] = useState('');
  const [{ data: sites }] = useQuery({ query: SITE_OPTIONS_QUERY });
  const query = useDebouncedValue(search.trim());
  const filters: Filters = {
    query: query === '' ? null : query,
    status: status === '' ? null : status,
    siteId: siteId === '' ? null : siteId,
  };
  return (
    <main className="page admin-page">
      <h1>Stories</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <SearchField
          id="stories-search"
          placeholder="Title or URL"
          value={search}
          onChange={setSearch}
        />
        <FilterSelect
          id="stories-status"
          label="Status"
          all="All"
          options={STATUS_OPTIONS}
          value={status}
          onChange={setStatus}
        />
        <FilterSelect
          id="stories-site"
          label="Site"
          all="All sites"
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
  return (
    <CursorTable
      caption="Stories"
      head={
        <>
          <th scope="col">Title</th>
          <th scope="col">Site</th>
          <th scope="col">Status</th>
          <th scope="col">
            <abbr title="Published / pending / reported">Comments</abbr>
            <span className="hint"> published / pending / reported</span>
          </th>
          <th scope="col">Open or close</th>
          <th scope="col">Pre-moderation</th>
          <th scope="col">Live updates</th>
        </>
      }
      columns={STORY_COLUMNS}
      query={STORIES_QUERY}
      filters={filters}
      pageSize={STORIES_PAGE_SIZE}
      connection={(data) => data.stories}
      empty="No stories match."
      row={(node) => <StoryRow key={node.id} story={node} />}
    />
  );
}
