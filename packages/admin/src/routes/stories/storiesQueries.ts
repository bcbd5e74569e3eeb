/** A story's status. */
export type StoryStatus = 'OPEN' | 'CLOSED';

/** Pre-moderation modes; a story's null override follows the organization's. */
export type PremodMode = 'OFF' | 'ALL' | 'LINKS' | 'NEW_COMMENTERS';

/** Stories per page of the table. */
export const STORIES_PAGE_SIZE = 20;

/** Words for the per-story pre-moderation select (`INHERIT` is the null override). */
export const PREMOD_LABELS: Record<PremodMode | 'INHERIT', string> = {
  INHERIT: 'As the organization',
  OFF: 'Off',
  ALL: 'All comments',
  LINKS: 'Comments with links',
  NEW_COMMENTERS: 'New commenters',
};

/** A row of the stories table. */
export interface StoryRowData {
  id: string;
  title: string | null;
  url: string;
  status: StoryStatus;
  commentCount: number;
  site: { id: string; name: string };
  settings: { premod: PremodMode | null; liveUpdates: boolean; effectivePremod: PremodMode };
  moderationCounts: { pending: number; reported: number } | null;
}

/** One page of stories. */
export interface StoriesData {
  stories: {
    edges: { cursor: string; node: StoryRowData }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** Variables of {@link STORIES_QUERY}. */
export interface StoriesVariables {
  query: string | null;
  status: StoryStatus | null;
  siteId: string | null;
  first: number;
  after: string | null;
}

const STORY_FIELDS = `id title url status commentCount site { id name }
  settings { premod liveUpdates effectivePremod } moderationCounts { pending reported }`;

/** The stories table: one page matching the filters. */
export const STORIES_QUERY = `query ConsoleStories($query: String, $status: StoryStatus, $siteId: ID, $first: Int, $after: String) {
  stories(query: $query, status: $status, siteId: $siteId, first: $first, after: $after) {
    edges { cursor node { ${STORY_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** The site filter's options. */
export const SITE_OPTIONS_QUERY = 'query ConsoleSiteOptions { sites { id name } }';

/** Opens or closes a story, or changes its overrides (null premod follows the organization). */
export const UPDATE_STORY_MUTATION = `mutation ConsoleUpdateStory($input: UpdateStoryInput!) {
  updateStory(input: $input) { story { ${STORY_FIELDS} } }
}`;
