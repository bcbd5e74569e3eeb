import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useT } from '../../i18n';

/** The sites and stories the filters offer; the page's setup query spreads it. */
export const QueueFiltersFields = graphql(`
  fragment QueueFiltersFields on Query {
    sites { id name }
    stories(first: 100) { edges { node { id title url site { id } } } }
  }
`);

/** Props of {@link QueueFilters}. */
export interface QueueFiltersProps {
  setup: ResultOf<typeof QueueFiltersFields>;
  siteId: string | null;
  storyId: string | null;
  order: 'newest' | 'oldest';
  /** Sets one filter; null clears it. */
  onChange: (name: 'site' | 'story' | 'order', value: string | null) => void;
}

/** Site, story and order selects; their values live in the query string (links preselect them). */
export function QueueFilters({ setup, siteId, storyId, order, onChange }: QueueFiltersProps) {
  const t = useT();
  const stories = setup.stories.edges
    .map((e) => e.node)
    .filter((story) => siteId === null || story.site.id === siteId);
  // A story linked from elsewhere may be beyond the first page of stories: keep it selectable.
  const linkedStoryMissing = storyId !== null && !stories.some((s) => s.id === storyId);
  return (
    <div className="mod-filters">
      <div>
        <label htmlFor="mod-site">{t('console.moderate.filters.site')}</label>
        <select
          id="mod-site"
          value={siteId ?? ''}
          onChange={(e) => onChange('site', e.target.value || null)}
        >
          <option value="">{t('console.moderate.filters.allSites')}</option>
          {setup.sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="mod-story">{t('console.moderate.filters.story')}</label>
        <select
          id="mod-story"
          value={storyId ?? ''}
          onChange={(e) => onChange('story', e.target.value || null)}
        >
          <option value="">{t('console.moderate.filters.allStories')}</option>
          {linkedStoryMissing && (
            <option value={storyId}>{t('console.moderate.filters.linkedStory')}</option>
          )}
          {stories.map((story) => (
            <option key={story.id} value={story.id}>
              {story.title ?? story.url}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="mod-order">{t('console.moderate.filters.order')}</label>
        <select
          id="mod-order"
          value={order}
          onChange={(e) => onChange('order', e.target.value === 'oldest' ? 'oldest' : null)}
        >
          <option value="newest">{t('console.moderate.filters.newest')}</option>
          <option value="oldest">{t('console.moderate.filters.oldest')}</option>
        </select>
      </div>
    </div>
  );
}
