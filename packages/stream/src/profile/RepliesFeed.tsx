import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useRef, useState } from 'preact/hooks';
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
  const [replaced, setReplaced] = useState(false);
  const [, make] = useMutation(MAKE_REPLIES_FEED_MUTATION);
  const action = useAction();
  const field = useRef<HTMLInputElement>(null);
  return (
    <PanelSection title={t('profile.feed.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          const hadOne = url !== null;
          void action
            .run(() => make({}))
            .then((data) => {
              const made = data?.makeRepliesFeed.user?.repliesFeedUrl;
              if (!made) return;
              setUrl(made);
              setReplaced(hadOne);
              // The new link, selected, ready to copy: the focus leaves the button, so a second
              // press does not replace the link just made.
              setTimeout(() => field.current?.focus(), 0);
            });
        }}
      >
        <p>{t('profile.feed.intro')}</p>
        {url !== null && (
          <label>
            {t('profile.feed.link')}
            <input
              ref={field}
              type="url"
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
        )}
        <button
          type="submit"
          disabled={action.busy}
          aria-describedby={url !== null ? 'parley-feed-replace-hint' : undefined}
        >
          {url === null ? t('profile.feed.make') : t('profile.feed.replace')}
        </button>
        {url !== null && (
          <p>
            <small id="parley-feed-replace-hint">{t('profile.feed.replaceHint')}</small>
          </p>
        )}
        <ActionStatus
          state={action.state}
          success={replaced ? t('profile.feed.replaced') : t('profile.feed.made')}
        />
      </form>
    </PanelSection>
  );
}
