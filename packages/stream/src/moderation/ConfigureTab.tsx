import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';
import { useStreamData, useStreamEnv } from '../StreamContext';
import { messages as en } from '../messages/en/moderation';
import type { MessageKey, MessagesPart } from '../messages';

/** The moderation area's text, added to the catalog before the panel renders (LazyPanel). */
export const messages: MessagesPart<keyof typeof en> = en;

/** Changes a story's status or its overrides of the organization's settings. */
export const UPDATE_STORY_MUTATION = graphql(`
  mutation UpdateStory($input: UpdateStoryInput!) {
    updateStory(input: $input) {
      story {
        id
        status
        settings {
          premod
          liveUpdates
          effectivePremod
        }
      }
    }
  }
`);

/** A story's pre-moderation mode, as the schema has it. */
type PremodMode = NonNullable<VariablesOf<typeof UPDATE_STORY_MUTATION>['input']['premod']>;

/** The schema's PremodMode values, in the order the select offers them. */
export const PREMOD_MODES = [
  'OFF',
  'ALL',
  'LINKS',
  'NEW_COMMENTERS',
] as const satisfies readonly PremodMode[];

const MODE_KEYS: Record<string, MessageKey> = {
  OFF: 'configure.premod.OFF',
  ALL: 'configure.premod.ALL',
  LINKS: 'configure.premod.LINKS',
  NEW_COMMENTERS: 'configure.premod.NEW_COMMENTERS',
};

/**
 * The Configure tab (moderators; its own chunk): open or close the story, and override its
 * pre-moderation and live updates. Each change reloads the root query, so the whole frame
 * (closed notice, comment box) follows at once.
 */
export function Panel() {
  const { t } = useStreamEnv();
  const { story, settings, refetch } = useStreamData();
  const [, update] = useMutation(UPDATE_STORY_MUTATION);
  const statusAction = useAction();
  const settingsAction = useAction();
  // '' stands for "no override": the select cannot hold null.
  const [premod, setPremod] = useState<PremodMode | ''>(story.settings.premod ?? '');
  const [liveUpdates, setLiveUpdates] = useState(story.settings.liveUpdates);
  // The status the last change set, from the server's answer: the root query's copy is still
  // the old one until its refetch arrives.
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const closed = story.status === 'CLOSED';
  const mode = (value: string) => {
    const key = MODE_KEYS[value];
    return key ? t(key) : value;
  };

  return (
    <div class="parley-configure">
      <PanelSection title={t('configure.status.title')}>
        <p>{t(closed ? 'configure.status.closed' : 'configure.status.open')}</p>
        <button
          type="button"
          disabled={statusAction.busy}
          onClick={async () => {
            const status = closed ? 'OPEN' : 'CLOSED';
            const data = await statusAction.run(() =>
              update({ input: { storyId: story.id, status } }),
            );
            if (data) {
              setChangedTo(data.updateStory.story?.status ?? status);
              refetch();
            }
          }}
        >
          {t(closed ? 'configure.open' : 'configure.close')}
        </button>
        <ActionStatus
          state={statusAction.state}
          success={t(changedTo === 'CLOSED' ? 'configure.closed' : 'configure.opened')}
        />
      </PanelSection>
      <PanelSection title={t('configure.settings.title')}>
        <form
          class="parley-form"
          onSubmit={async (event) => {
            event.preventDefault();
            const input: VariablesOf<typeof UPDATE_STORY_MUTATION>['input'] = {
              storyId: story.id,
              // Null clears the override (the server's contract): the organization's mode applies.
              premod: premod === '' ? null : premod,
            };
            // The schema gives the effective value only, not whether it is an override: send it
            // only when changed, so saving the mode never pins live updates by accident.
            if (liveUpdates !== story.settings.liveUpdates) input.liveUpdates = liveUpdates;
            const data = await settingsAction.run(() => update({ input }));
            if (data) refetch();
          }}
        >
          <label>
            {t('configure.premod.label')}
            <select
              value={premod}
              onChange={(event) =>
                setPremod(PREMOD_MODES.find((mode) => mode === event.currentTarget.value) ?? '')
              }
            >
              <option value="">
                {t('configure.premod.inherit', { mode: mode(settings.premod) })}
              </option>
              {PREMOD_MODES.map((value) => (
                <option key={value} value={value}>
                  {mode(value)}
                </option>
              ))}
            </select>
          </label>
          <p>{t('configure.premod.effective', { mode: mode(story.settings.effectivePremod) })}</p>
          <label class="parley-check">
            <input
              type="checkbox"
              checked={liveUpdates}
              onChange={(event) => setLiveUpdates(event.currentTarget.checked)}
            />{' '}
            {t('configure.liveUpdates')}
          </label>
          <button type="submit" disabled={settingsAction.busy}>
            {t('configure.save')}
          </button>
          <ActionStatus state={settingsAction.state} success={t('configure.saved')} />
        </form>
      </PanelSection>
    </div>
  );
}
