import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
import { useCursorList } from '../community/useCursorList';
import type { CursorList } from '../community/useCursorList';
import { useDebouncedValue } from '../community/useDebouncedValue';
import { SITE_OPTIONS_QUERY, STORIES_PAGE_SIZE, STORIES_QUERY } from './storiesQueries';
import type { StoriesData, StoriesVariables, StoryStatus } from './storiesQueries';
import { STORY_COLUMNS, StoryRow } from './StoryRow';

type Filters = Omit<StoriesVariables, 'after' | 'first'>;

/** `/admin/stories`: stories with their counts, open/close and per-story overrides. */
export function StoriesPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StoryStatus | ''>('');
  const [siteId, setSiteId] = useState('');
  const [{ data: sites }] = useQuery<{ sites: { id: string; name: string }[] }>({
    query: SITE_OPTIONS_QUERY,
  });
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
        <div>
          <label htmlFor="stories-search">Search</label>
          <input
            id="stories-search"
            type="search"
            placeholder="Title or URL"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="stories-status">Status</label>
          <select
            id="stories-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as StoryStatus | '')}
          >
            <option value="">All</option>
            <option value="OPEN">Open</option>
            <option value="CLOSED">Closed</option>
          </select>
        </div>
        <div>
          <label htmlFor="stories-site">Site</label>
          <select id="stories-site" value={siteId} onChange={(e) => setSiteId(e.target.value)}>
            <option value="">All sites</option>
            {sites?.sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <StoryTable key={JSON.stringify(filters)} filters={filters} />
    </main>
  );
}

function StoryTable({ filters }: { filters: Filters }) {
  const list = useCursorList();
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Stories</caption>
          <thead>
            <tr>
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
            </tr>
          </thead>
          {list.cursors.map((after, i) => (
            <StoryPage
              key={after ?? 'first'}
              variables={{ ...filters, first: STORIES_PAGE_SIZE, after }}
              report={i === list.cursors.length - 1 ? list.report : undefined}
            />
          ))}
        </table>
      </div>
      {list.hasMore && (
        <button type="button" className="load-more" onClick={list.loadMore}>
          Load more
        </button>
      )}
    </>
  );
}

function StoryPage({
  variables,
  report,
}: {
  variables: StoriesVariables;
  report: CursorList['report'] | undefined;
}) {
  const [{ data, error, fetching }] = useQuery<StoriesData, StoriesVariables>({
    query: STORIES_QUERY,
    variables,
  });
  useEffect(() => {
    if (report && data) report(data.stories.pageInfo);
  }, [report, data]);
  const message =
    error && !data
      ? errorText(toTransportError(error).code)
      : !data && fetching
        ? 'Loading…'
        : data?.stories.edges.length === 0 && variables.after === null
          ? 'No stories match.'
          : null;
  return (
    <tbody>
      {message !== null && (
        <tr>
          <td colSpan={STORY_COLUMNS} role={error ? 'alert' : 'status'}>
            {message}
          </td>
        </tr>
      )}
      {data?.stories.edges.map(({ node }) => (
        <StoryRow key={node.id} story={node} />
      ))}
    </tbody>
  );
}
