import { useState } from 'react';
import { uiLocale } from '../../formatWhen';
import { useMutation } from 'urql';
import { ROLES } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { isAdmin, useViewer } from '../../Viewer';
import type { ConsoleViewer, Role } from '../../Viewer';
import { LABELS, SET_USER_ROLE_MUTATION } from './communityQueries';
import { UserActions } from './UserActions';

/** What a row of the community table reads of its user; the table's query spreads it. */
export const UserRowFields = graphql(
  `fragment UserRowFields on User { id username email role status suspendedUntil createdAt isGuest }`,
);

/** A row of the community table. */
export type CommunityUser = ResultOf<typeof UserRowFields>;

/** Columns of the community table (the actions panel spans them all). */
export const USER_COLUMNS = 6;

/** Mirrors the server's rule (resolvers/moderation/userActions.ts): only on a lower role. */
function canActOn(viewer: ConsoleViewer, user: CommunityUser): boolean {
  return user.id !== viewer.id && ROLES.indexOf(user.role) < ROLES.indexOf(viewer.role);
}

/** "Member since" as a short date in the moderator's locale. */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString(uiLocale(), { dateStyle: 'medium' });
}

/**
 * One user of the community table, with their role select (not a guest's: they have no account
 * to give a role to), the status actions, and Comments (the moderation drawer).
 */
export function UserRow({
  user,
  onComments,
}: {
  user: CommunityUser;
  onComments: (userId: string) => void;
}) {
  const viewer = useViewer();
  const t = useT();
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [roleError, setRoleError] = useState<string | null>(null);
  // Shared by the role select and the status actions (both email it when given).
  const [message, setMessage] = useState('');
  const [roleState, setRole] = useMutation(SET_USER_ROLE_MUTATION);
  const panelId = `user-actions-${user.id}`;
  // Admins change roles, their own included (the server refuses to demote the last admin).
  const roleEditable = isAdmin(viewer) && !user.isGuest;
  const actionable = canActOn(viewer, user);

  async function changeRole(role: Role) {
    setRoleError(null);
    const note = message.trim();
    const result = await setRole({
      input: { userId: user.id, role, ...(note === '' ? {} : { message: note }) },
    });
    if (result.error) setRoleError(errorText(toTransportError(result.error).code));
    else setMessage('');
  }

  const status = user.status ?? 'ACTIVE';
  return (
    <>
      <tr>
        <th scope="row">
          {user.username}
          {user.isGuest && <span className="tag"> {t('console.community.row.guest')}</span>}
        </th>
        <td className="wrap">{user.email ?? '—'}</td>
        <td>
          {roleEditable ? (
            <>
              <label className="visually-hidden" htmlFor={`role-${user.id}`}>
                {t('console.community.row.roleOf', { username: user.username })}
              </label>
              <select
                id={`role-${user.id}`}
                value={user.role}
                disabled={roleState.fetching}
                onChange={(e) => void changeRole(e.target.value as Role)}
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {t(LABELS[role])}
                  </option>
                ))}
              </select>
              {roleError !== null && <p role="alert">{roleError}</p>}
            </>
          ) : user.isGuest ? (
            t('console.community.row.guest')
          ) : (
            t(LABELS[user.role])
          )}
        </td>
        <td>
          {t(LABELS[status])}
          {status === 'SUSPENDED' && user.suspendedUntil !== null && (
            <span className="hint">
              {' '}
              {t('console.community.row.suspendedUntil', {
                when: new Date(user.suspendedUntil).toLocaleString(uiLocale()),
              })}
            </span>
          )}
        </td>
        <td>{day(user.createdAt)}</td>
        <td className="row-actions">
          <button type="button" onClick={() => onComments(user.id)}>
            {t('console.community.row.comments.visible')}
            <span className="visually-hidden">
              {' '}
              {t('console.community.row.comments.hidden', { username: user.username })}
            </span>
          </button>
          {actionable && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setOpen(!open)}
            >
              {t('console.community.row.actions.visible')}
              <span className="visually-hidden">
                {' '}
                {t('console.community.row.actions.hidden', { username: user.username })}
              </span>
            </button>
          )}
        </td>
      </tr>
      {open && actionable && (
        <tr id={panelId} className="panel-row">
          <td colSpan={USER_COLUMNS}>
            <UserActions user={user} message={message} setMessage={setMessage} />
          </td>
        </tr>
      )}
    </>
  );
}
