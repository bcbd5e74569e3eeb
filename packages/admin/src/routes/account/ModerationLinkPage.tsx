import { useRef, useState } from 'react';
import { uiLocale } from '../../formatWhen';
import { useMutation, useQuery } from 'urql';
import type { ErrorCode } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { errorCodeOf } from '../../errorCodeOf';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { Loading } from '../../Loading';
import { AccountFrame, TokenProblem } from './AccountFrame';
import { useLinkToken } from './useLinkToken';

const ModerationLinkFields = graphql(`
  fragment ModerationLinkFields on ModerationLink {
    action moderator commentId author excerpt storyTitle storyUrl status decidable expiresAt
  }
`);

/** What a moderation email's link would do, read without doing it. */
export const MODERATION_LINK_QUERY = graphql(
  `
    query ConsoleModerationLink($token: String!) {
      moderationLink(token: $token) { ...ModerationLinkFields }
    }
  `,
  [ModerationLinkFields],
);

/** Uses the link: approves or rejects its comment, once; answers the comment as it stands. */
export const USE_MODERATION_LINK_MUTATION = graphql(
  `
    mutation ConsoleUseModerationLink($input: UseModerationLinkInput!) {
      useModerationLink(input: $input) { link { ...ModerationLinkFields } }
    }
  `,
  [ModerationLinkFields],
);

/** A moderation email's link, as this page shows it. */
export type ConsoleModerationLink = ResultOf<typeof ModerationLinkFields>;

/**
 * "Nothing to do" for a comment no longer waiting, by its status (`CommentStatus`): catalog keys,
 * one whole sentence per status.
 */
const NOTHING_TO_DO: Record<ConsoleModerationLink['status'], ConsoleMessageKey> = {
  NONE: 'console.account.moderationLink.nothingToDo.NONE',
  APPROVED: 'console.account.moderationLink.nothingToDo.APPROVED',
  REJECTED: 'console.account.moderationLink.nothingToDo.REJECTED',
  PREMOD: 'console.account.moderationLink.nothingToDo.PREMOD',
  SYSTEM_WITHHELD: 'console.account.moderationLink.nothingToDo.SYSTEM_WITHHELD',
};

/** What each action's page says (catalog keys), and the status it leaves the comment in. */
const ACTION_TEXT = {
  APPROVE: {
    title: 'console.account.moderationLink.APPROVE.title',
    button: 'console.account.moderationLink.APPROVE.button',
    done: 'console.account.moderationLink.APPROVE.done',
    status: 'APPROVED',
  },
  REJECT: {
    title: 'console.account.moderationLink.REJECT.title',
    button: 'console.account.moderationLink.REJECT.button',
    done: 'console.account.moderationLink.REJECT.done',
    status: 'REJECTED',
  },
} as const satisfies Record<
  ConsoleModerationLink['action'],
  { title: ConsoleMessageKey; button: ConsoleMessageKey; done: ConsoleMessageKey; status: string }
>;

/** Where the button's run stands. */
type UseState =
  | { kind: 'ready' }
  | { kind: 'sending' }
  | { kind: 'done'; link: ConsoleModerationLink }
  /** The server refused the link: nothing left to try. */
  | { kind: 'dead'; code: 'TOKEN_EXPIRED' | 'TOKEN_INVALID' }
  /** Another failure (network, server): the token was not used, the button stays. */
  | { kind: 'failed'; code: ErrorCode };

const WHEN = { dateStyle: 'medium', timeStyle: 'short' } as const;

/**
 * The link is read once and not cached: after the button, the page shows the mutation's answer,
 * so the transport need not read the link again when that answer comes.
 */
const READ_ONCE = { cacheResult: false };

/**
 * `/account/moderate#token=…`, an email's one-time Approve or Reject link. Public: the link is
 * the moderator's authority for this one comment. Opening the page only reads what the link would
 * do; the button does it. Mail scanners open links (and run their scripts), and must decide
 * nothing.
 */
export function ModerationLinkPage() {
  const t = useT();
  // How to decide when the link does not work.
  const again = t('console.account.moderationLink.again');
  const token = useLinkToken();
  const [{ data, error }, reexecute] = useQuery({
    query: MODERATION_LINK_QUERY,
    variables: { token: token ?? '' },
    pause: token === null,
    requestPolicy: 'network-only',
    context: READ_ONCE,
  });
  const [, execute] = useMutation(USE_MODERATION_LINK_MUTATION);
  const [state, setState] = useState<UseState>({ kind: 'ready' });
  const busy = useRef(false);

  async function decide() {
    if (token === null || busy.current) return;
    busy.current = true;
    setState({ kind: 'sending' });
    // Sent once, never retried: the token decides a comment, once.
    const result = await execute({ input: { token } }, { clientMutationId: false });
    busy.current = false;
    const code = errorCodeOf(result.error);
    if (result.data) setState({ kind: 'done', link: result.data.useModerationLink.link });
    else if (code === 'TOKEN_EXPIRED' || code === 'TOKEN_INVALID') setState({ kind: 'dead', code });
    else setState({ kind: 'failed', code });
  }

  if (token === null) {
    return (
      <AccountFrame title={t('console.account.moderationLink.title')}>
        <TokenProblem code={null} again={again} />
      </AccountFrame>
    );
  }
  const read = data?.moderationLink;
  if (!read) {
    const code = error ? errorCodeOf(error) : null;
    return (
      <AccountFrame title={t('console.account.moderationLink.title')}>
        {code === null ? (
          <Loading />
        ) : (
          <>
            <TokenProblem code={code} again={again} />
            {code !== 'TOKEN_EXPIRED' && code !== 'TOKEN_INVALID' && (
              <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
                {t('console.account.moderationLink.retry')}
              </button>
            )}
          </>
        )}
      </AccountFrame>
    );
  }

  const link = state.kind === 'done' ? state.link : read;
  const text = ACTION_TEXT[link.action];
  return (
    <AccountFrame title={t(text.title)}>
      <LinkPreview link={link} />
      {state.kind === 'done' ? (
        <p role="status" className={link.status === text.status ? 'success' : undefined}>
          {link.status === text.status ? t(text.done) : t(NOTHING_TO_DO[link.status])}
        </p>
      ) : state.kind === 'dead' ? (
        <TokenProblem code={state.code} again={again} />
      ) : !link.decidable ? (
        <p>{t(NOTHING_TO_DO[link.status])}</p>
      ) : (
        <>
          {state.kind === 'failed' && <TokenProblem code={state.code} again={again} />}
          <p className="hint">
            {t('console.account.moderationLink.worksOnce', {
              when: new Date(link.expiresAt).toLocaleString(uiLocale(), WHEN),
            })}
          </p>
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={state.kind === 'sending'}
              onClick={() => void decide()}
            >
              {t(text.button)}
            </button>
          </div>
        </>
      )}
    </AccountFrame>
  );
}

/** The comment the link decides: its author, its story, its text, and who decides. */
function LinkPreview({ link }: { link: ConsoleModerationLink }) {
  const t = useT();
  const story = link.storyTitle || link.storyUrl;
  return (
    <>
      <dl className="moderation-link">
        <dt>{t('console.account.moderationLink.author')}</dt>
        <dd>{link.author || t('console.moderate.deletedAccount')}</dd>
        <dt>{t('console.account.moderationLink.story')}</dt>
        <dd>{/^https?:\/\//i.test(link.storyUrl) ? <a href={link.storyUrl}>{story}</a> : story}</dd>
      </dl>
      <blockquote className="moderation-link-excerpt">{link.excerpt}</blockquote>
      <p>{t('console.account.moderationLink.actingAs', { moderator: link.moderator })}</p>
    </>
  );
}
