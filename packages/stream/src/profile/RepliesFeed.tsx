import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Makes a new private link to the feed of replies to the viewer (the old one stops working). */
export const MAKE_REPLIES_FEED_MUTATION = graphql(`
  mutation MakeRepliesFeed {
    makeRepliesFeed {
      user {
        id
        repliesFeedUrl
      }
    }
  }
`);

/**
 * The private Atom feed of replies to my comments: its link to copy into a feed reader, made on
 * request, and replaced when it leaked (the old link stops working, which the button's hint says:
 * a frame's `confirm()` may be blocked).
 */
export function RepliesFeed({ initial }: { initial: string | null }) {
  const { t } = useStreamEnv();
  const [url, setUrl] = useState(initial);
  const [, make] = useMutation(MAKE_REPLIES_FEED_MUTATION);
  const action = useAction();
  return (
    <PanelSection title={t('profile.feed.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action
            .run(() => make({}))
            .then((data) => {
              const made = data?.makeRepliesFeed.user?.repliesFeedUrl;
              if (made) setUrl(made);
            });
        }}
      >
        <p>{t('profile.feed.intro')}</p>
        {url !== null && (
          <label>
            {t('profile.feed.link')}
            <input
              type="url"
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
        )}
        <button type="submit" disabled={action.busy}>
          {url === null ? t('profile.feed.make') : t('profile.feed.replace')}
        </button>
        {url !== null && (
          <p>
            <small>{t('profile.feed.replaceHint')}</small>
          </p>
        )}
        <ActionStatus state={action.state} success={t('profile.feed.made')} />
      </form>
    </PanelSection>
  );
}
