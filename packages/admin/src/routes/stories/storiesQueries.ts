import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import { CursorPageInfoFields } from '../community/useCursorList';
import { StoryRowFields } from './StoryRow';

/** Stories per page of the table. */
export const STORIES_PAGE_SIZE = 20;

/** The stories table: one page matching the filters. */
export const STORIES_QUERY = graphql(
  `
    query ConsoleStories($query: String, $status: StoryStatus, $siteId: ID, $first: Int, $after: String) {
      stories(query: $query, status: $status, siteId: $siteId, first: $first, after: $after) {
        edges { cursor node { ...StoryRowFields } }
        pageInfo { ...CursorPageInfoFields }
      }
    }
  `,
  [StoryRowFields, CursorPageInfoFields],
);

/** Variables of {@link STORIES_QUERY}. */
export type StoriesVariables = VariablesOf<typeof STORIES_QUERY>;

/** A story's status (`StoryStatus`). */
export type StoryStatus = NonNullable<StoriesVariables['status']>;

/** The site filter's options. */
export const SITE_OPTIONS_QUERY = graphql(`query ConsoleSiteOptions { sites { id name } }`);
