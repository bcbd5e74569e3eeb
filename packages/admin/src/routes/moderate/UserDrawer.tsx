import { useState } from 'react';
import { uiLocale } from '../../formatWhen';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { Loading } from '../../Loading';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { Dialog } from './Dialog';
import { EraseGuest, IpBanForm } from '../community/IpBans';
import { isAdmin, useViewer } from '../../Viewer';
import { ModerationUserActionsFields, UserActions } from './UserActions';

/** What the drawer's comment lists read of a comment. */
export const DrawerCommentFields = graphql(
  `fragment DrawerCommentFields on Comment { id body status createdAt deletedAt story { id title url } }`,
);

/** The user drawer: everything about one person. */
export const USER_DRAWER_QUERY = graphql(
  `
    query ModerationUser($id: ID!) {
      user(id: $id) {
        id username email role status suspendedUntil createdAt isGuest ipAddress suggestedBanRange
        ...ModerationUserActionsFields
        all: comments(first: 20) { edges { node { ...DrawerCommentFields } } }
        rejected: comments(first: 20, status: REJECTED) {
          edges { node { ...DrawerCommentFields } }
        }
        history { id action message actor { username } createdAt }
      }
    }
  `,
  [ModerationUserActionsFields, DrawerCommentFields],
);

/** The user of {@link USER_DRAWER_QUERY}. */
export type DrawerUser = NonNullable<ResultOf<typeof USER_DRAWER_QUERY>['user']>;

const date = (iso: string) => new Date(iso).toLocaleDateString(uiLocale(), { dateStyle: 'medium' });
const dateTime = (iso: string) => new Date(iso).toLocaleString(uiLocale());

/** The history actions the console has words for (`User.history`'s `action` is free text). */
const HISTORY_ACTIONS = ['BAN', 'UNBAN', 'SUSPEND', 'PREMOD', 'UNPREMOD', 'ROLE'] as const;

const isHistoryAction = (action: string): action is (typeof HISTORY_ACTIONS)[number] =>
  (HISTORY_ACTIONS as readonly string[]).includes(action);

/** The user drawer: who they are, what they wrote, what was done to their account, and actions. */
export function UserDrawer({ userId, onClose }: { userId: string; onClose: () => void }) {
  const t = useT();
  const errorText = useErrorText();
  const viewer = useViewer();
  const [{ data, error }, reexecute] = useQuery({
    query: USER_DRAWER_QUERY,
    variables: { id: userId },
    requestPolicy: 'cache-and-network',
  });
  const [tab, setTab] = useState<'all' | 'rejected'>('all');
  const user = data?.user;
  return (
    <Dialog
      title={user ? user.username : t('console.moderate.drawer.user')}
      onClose={onClose}
      variant="drawer"
    >
      {error && !data && <p role="alert">{errorText(toTransportError(error).code)}</p>}
      {!data && !error && <Loading />}
      {data && !user && <p role="alert">{errorText('NOT_FOUND')}</p>}
      {user && (
        <>
          <dl className="mod-user-facts">
            <dt>{t('console.moderate.drawer.status')}</dt>
            <dd>
              {user.suspendedUntil
                ? t('console.moderate.drawer.statusUntil', {
                    status: t(`console.moderate.userStatus.${user.status ?? 'ACTIVE'}`),
                    when: dateTime(user.suspendedUntil),
                  })
                : t(`console.moderate.userStatus.${user.status ?? 'ACTIVE'}`)}
            </dd>
            <dt>{t('console.moderate.drawer.role')}</dt>
            <dd>
              {user.isGuest
                ? t('console.moderate.drawer.guest')
                : t(`console.moderate.role.${user.role}`)}
            </dd>
            <dt>
              {user.isGuest
                ? t('console.moderate.drawer.firstPosted')
                : t('console.moderate.drawer.memberSince')}
            </dt>
            <dd>{date(user.createdAt)}</dd>
            <dt>{t('console.moderate.drawer.email')}</dt>
            <dd>{user.isGuest && user.email?.endsWith('.invalid') ? '—' : (user.email ?? '—')}</dd>
            {user.ipAddress && (
              <>
                <dt>{t('console.moderate.drawer.lastIp')}</dt>
                <dd>{user.ipAddress}</dd>
              </>
            )}
          </dl>
          {user.suggestedBanRange && <IpBanForm initialRange={user.suggestedBanRange} />}
          {user.isGuest && isAdmin(viewer) && (
            <EraseGuest
              userId={user.id}
              name={user.username}
              onDone={() => reexecute({ requestPolicy: 'network-only' })}
            />
          )}

          <UserActions user={user} onDone={() => reexecute({ requestPolicy: 'network-only' })} />

          <section aria-labelledby="drawer-comments">
            <h3 id="drawer-comments">{t('console.moderate.drawer.comments')}</h3>
            <div
              className="mod-tabs"
              role="group"
              aria-label={t('console.moderate.drawer.whichComments')}
            >
              <button type="button" aria-pressed={tab === 'all'} onClick={() => setTab('all')}>
                {t('console.moderate.drawer.all')}
              </button>
              <button
                type="button"
                aria-pressed={tab === 'rejected'}
                onClick={() => setTab('rejected')}
              >
                {t('console.moderate.drawer.rejected')}
              </button>
            </div>
            <CommentList comments={(tab === 'all' ? user.all : user.rejected)?.edges ?? []} />
          </section>

          <section aria-labelledby="drawer-history">
            <h3 id="drawer-history">{t('console.moderate.drawer.history')}</h3>
            {(user.history ?? []).length === 0 ? (
              <p>{t('console.moderate.drawer.historyEmpty')}</p>
            ) : (
              <ol className="mod-history">
                {[...(user.history ?? [])].reverse().map((h) => (
                  <li key={h.id}>
                    <time dateTime={h.createdAt}>{dateTime(h.createdAt)}</time>{' '}
                    <strong>
                      {isHistoryAction(h.action)
                        ? t(`console.moderate.drawer.historyAction.${h.action}`)
                        : h.action.toLowerCase()}
                    </strong>{' '}
                    {t('console.moderate.drawer.historyBy', {
                      actor: h.actor?.username ?? t('console.moderate.drawer.theSystem'),
                    })}
                    {h.message && (
                      <> {t('console.moderate.drawer.historyMessage', { message: h.message })}</>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </Dialog>
  );
}

function CommentList({
  comments,
}: {
  comments: readonly { node: ResultOf<typeof DrawerCommentFields> }[];
}) {
  const t = useT();
  if (comments.length === 0) return <p>{t('console.moderate.drawer.noComments')}</p>;
  return (
    <ul className="mod-user-comments">
      {comments.map(({ node }) => (
        <li key={node.id}>
          {node.deletedAt ? (
            // Deleted by its author (or with the account): the text went with it.
            <p className="mod-deleted">
              {t('console.moderate.drawer.deleted.before')}{' '}
              <time dateTime={node.deletedAt}>{dateTime(node.deletedAt)}</time>
              {t('console.moderate.drawer.deleted.after')}
            </p>
          ) : (
            <div className="mod-body" dangerouslySetInnerHTML={{ __html: node.body }} />
          )}
          <small>
            {t(`console.moderate.commentStatus.${node.status}`)} · {date(node.createdAt)} ·{' '}
            <a href={node.story.url} target="_blank" rel="noreferrer">
              {node.story.title ?? node.story.url}
            </a>
          </small>
        </li>
      ))}
    </ul>
  );
}
