import { useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf, VariablesOf } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';

/** What a row of the stories table reads of its story; the table's query spreads it. */
export const StoryRowFields = graphql(`
  fragment StoryRowFields on Story {
    id title url status commentCount
    site { id name }
    settings { premod liveUpdates effectivePremod }
    moderationCounts { pending reported }
  }
`);

/** A row of the stories table. */
export type StoryRowData = ResultOf<typeof StoryRowFields>;

/** Opens or closes a story, or changes its overrides (null premod follows the organization). */
export const UPDATE_STORY_MUTATION = graphql(
  `
    mutation ConsoleUpdateStory($input: UpdateStoryInput!) {
      updateStory(input: $input) { story { ...StoryRowFields } }
    }
  `,
  [StoryRowFields],
);

/** Pre-moderation modes (`PremodMode`); a story's null override follows the organization's. */
type PremodMode = StoryRowData['settings']['effectivePremod'];

/**
 * Catalog keys of the words for the per-story pre-moderation select (`INHERIT` is the null
 * override).
 */
const PREMOD_LABELS: Record<PremodMode | 'INHERIT', ConsoleMessageKey> = {
  INHERIT: 'console.stories.premod.INHERIT',
  OFF: 'console.stories.premod.OFF',
  ALL: 'console.stories.premod.ALL',
  LINKS: 'console.stories.premod.LINKS',
  NEW_COMMENTERS: 'console.stories.premod.NEW_COMMENTERS',
};

/** Columns of the stories table. */
export const STORY_COLUMNS = 7;

/** Options of the per-story pre-moderation select, "as the organization" first. */
const PREMOD_OPTIONS = Object.keys(PREMOD_LABELS) as (PremodMode | 'INHERIT')[];

/** One story: counts, open/close, its pre-moderation and live-updates overrides. */
export function StoryRow({ story }: { story: StoryRowData }) {
  const [state, update] = useMutation(UPDATE_STORY_MUTATION);
  const [error, setError] = useState<string | null>(null);
  const title = story.title ?? story.url;
  const closed = story.status === 'CLOSED';
  const t = useT();
  const errorText = useErrorText();

  async function send(patch: Omit<VariablesOf<typeof UPDATE_STORY_MUTATION>['input'], 'storyId'>) {
    setError(null);
    const result = await update({ input: { storyId: story.id, ...patch } });
    if (result.error) setError(errorText(toTransportError(result.error).code));
  }

  return (
    <tr>
      <th scope="row" className="wrap">
        <a href={story.url} target="_blank" rel="noreferrer">
          {title}
        </a>
        <div>
          <Link href={`~/admin/moderate?story=${encodeURIComponent(story.id)}`}>
            {t('console.stories.row.moderate')}
            <span className="visually-hidden"> {title}</span>
          </Link>
        </div>
        {error !== null && <p role="alert">{error}</p>}
      </th>
      <td>{story.site.name}</td>
      <td>{t(closed ? 'console.stories.status.CLOSED' : 'console.stories.status.OPEN')}</td>
      <td className="counts">
        {story.commentCount} / {story.moderationCounts?.pending ?? '—'} /{' '}
        {story.moderationCounts?.reported ?? '—'}
      </td>
      <td>
        <button
          type="button"
          disabled={state.fetching}
          onClick={() => void send({ status: closed ? 'OPEN' : 'CLOSED' })}
        >
          {t(closed ? 'console.stories.row.open' : 'console.stories.row.close')}
          <span className="visually-hidden"> {title}</span>
        </button>
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`premod-${story.id}`}>
          {t('console.stories.row.premod', { title })}
        </label>
        <select
          id={`premod-${story.id}`}
          value={story.settings.premod ?? 'INHERIT'}
          disabled={state.fetching}
          // An explicit null clears the override (resolvers/admin/storyAdmin.ts).
          onChange={(e) =>
            void send({
              premod: e.target.value === 'INHERIT' ? null : (e.target.value as PremodMode),
            })
          }
        >
          {PREMOD_OPTIONS.map((mode) => (
            <option key={mode} value={mode}>
              {mode === 'INHERIT'
                ? t('console.stories.premod.inheritAs', {
                    mode: t(PREMOD_LABELS[story.settings.effectivePremod]),
                  })
                : t(PREMOD_LABELS[mode])}
            </option>
          ))}
        </select>
      </td>
      <td>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={story.settings.liveUpdates}
            disabled={state.fetching}
            onChange={(e) => void send({ liveUpdates: e.target.checked })}
          />
          <span className="visually-hidden">{t('console.stories.row.liveUpdates', { title })}</span>
        </label>
      </td>
    </tr>
  );
}
