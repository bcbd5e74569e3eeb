import { useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { Loading } from '../../Loading';
import { errorText } from '../../errorText';
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

const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const dateTime = (iso: string) => new Date(iso).toLocaleString();

/** The user drawer: who they are, what they wrote, what was done to their account, and actions. */
export function UserDrawer({ userId, onClose }: { userId: string; onClose: () => void }) {
  const viewer = useViewer();
  const [{ data, error }, reexecute] = useQuery({
    query: USER_DRAWER_QUERY,
    variables: { id: userId },
    requestPolicy: 'cache-and-network',
  });
  const [tab, setTab] = useState<'all' | 'rejected'>('all');
  const user = data?.user;
  return (
    <Dialog title={user ? user.username : 'User'} onClose={onClose} variant="drawer">
      {error && !data && <p role="alert">{errorText(toTransportError(error).code)}</p>}
      {!data && !error && <Loading />}
      {data && !user && <p role="alert">{errorText('NOT_FOUND')}</p>}
      {user && (
        <>
          <dl className="mod-user-facts">
            <dt>Status</dt>
            <dd>
              {(user.status ?? 'ACTIVE').toLowerCase()}
              {user.suspendedUntil && ` until ${dateTime(user.suspendedUntil)}`}
            </dd>
            <dt>Role</dt>
            <dd>{user.isGuest ? 'guest (no account)' : user.role.toLowerCase()}</dd>
            <dt>{user.isGuest ? 'First posted' : 'Member since'}</dt>
            <dd>{date(user.createdAt)}</dd>
            <dt>Email</dt>
            <dd>{user.isGuest && user.email?.endsWith('.invalid') ? '—' : (user.email ?? '—')}</dd>
            {user.ipAddress && (
              <>
                <dt>Last posted from</dt>
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
            <h3 id="drawer-comments">Comments</h3>
            <div className="mod-tabs" role="group" aria-label="Which comments">
              <button type="button" aria-pressed={tab === 'all'} onClick={() => setTab('all')}>
                All
              </button>
              <button
                type="button"
                aria-pressed={tab === 'rejected'}
                onClick={() => setTab('rejected')}
              >
                Rejected
              </button>
            </div>
            <CommentList comments={(tab === 'all' ? user.all : user.rejected)?.edges ?? []} />
          </section>

          <section aria-labelledby="drawer-history">
            <h3 id="drawer-history">Account history</h3>
            {(user.history ?? []).length === 0 ? (
              <p>Nothing yet.</p>
            ) : (
              <ol className="mod-history">
                {[...(user.history ?? [])].reverse().map((h) => (
                  <li key={h.id}>
                    <time dateTime={h.createdAt}>{dateTime(h.createdAt)}</time>{' '}
                    <strong>{h.action.toLowerCase()}</strong> by {h.actor?.username ?? 'the system'}
                    {h.message && <> — “{h.message}”</>}
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
  if (comments.length === 0) return <p>No comments.</p>;
  return (
    <ul className="mod-user-comments">
      {comments.map(({ node }) => (
        <li key={node.id}>
          {node.deletedAt ? (
            // Deleted by its author (or with the account): the text went with it.
            <p className="mod-deleted">
              Deleted <time dateTime={node.deletedAt}>{dateTime(node.deletedAt)}</time>; its text
              was erased.
            </p>
          ) : (
            <div className="mod-body" dangerouslySetInnerHTML={{ __html: node.body }} />
          )}
          <small>
            {node.status.toLowerCase()} · {date(node.createdAt)} ·{' '}
            <a href={node.story.url} target="_blank" rel="noreferrer">
              {node.story.title ?? node.story.url}
            </a>
          </small>
        </li>
      ))}
    </ul>
  );
}
