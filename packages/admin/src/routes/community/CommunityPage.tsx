import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { errorText } from '../../errorText';
import { isAdmin, useViewer } from '../../Viewer';
import type { Role } from '../../Viewer';
import { LABELS, ROLES, USER_STATUSES, USERS_PAGE_SIZE, USERS_QUERY } from './communityQueries';
import type { UserStatus, UsersData, UsersVariables } from './communityQueries';
import { InviteModerator } from './InviteModerator';
import { USER_COLUMNS, UserRow } from './UserRow';
import { useCursorList } from './useCursorList';
import type { CursorList } from './useCursorList';
import { useDebouncedValue } from './useDebouncedValue';

type Filters = Omit<UsersVariables, 'after' | 'first'>;

/** `/admin/community`: every user, searchable and filterable, with role and status actions. */
export function CommunityPage() {
  const viewer = useViewer();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [status, setStatus] = useState<UserStatus | ''>('');
  const query = useDebouncedValue(search.trim());
  const filters: Filters = {
    query: query === '' ? null : query,
    role: role === '' ? null : role,
    status: status === '' ? null : status,
  };
  return (
    <main className="page admin-page">
      <h1>Community</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor="community-search">Search</label>
          <input
            id="community-search"
            type="search"
            placeholder="Username or email"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="community-role">Role</label>
          <select
            id="community-role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role | '')}
          >
            <option value="">All roles</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="community-status">Status</label>
          <select
            id="community-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as UserStatus | '')}
          >
            <option value="">All statuses</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <UserTable key={JSON.stringify(filters)} filters={filters} />
      {isAdmin(viewer) && <InviteModerator />}
    </main>
  );
}

function UserTable({ filters }: { filters: Filters }) {
  const list = useCursorList();
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Users</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Member since</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          {list.cursors.map((after, i) => (
            <UserPage
              key={after ?? 'first'}
              variables={{ ...filters, first: USERS_PAGE_SIZE, after }}
              report={i === list.cursors.length - 1 ? list.report : undefined}
            />
          ))}
        </table>
      </div>
      {list.hasMore && (
        <button type="button" className="load-more" onClick={list.loadMore}>
          Load more
        </button>
      )}
    </>
  );
}

function UserPage({
  variables,
  report,
}: {
  variables: UsersVariables;
  report: CursorList['report'] | undefined;
}) {
  const [{ data, error, fetching }] = useQuery<UsersData, UsersVariables>({
    query: USERS_QUERY,
    variables,
  });
  useEffect(() => {
    if (report && data) report(data.users.pageInfo);
  }, [report, data]);
  const message =
    error && !data
      ? errorText(toTransportError(error).code)
      : !data && fetching
        ? 'Loading…'
        : data?.users.edges.length === 0 && variables.after === null
          ? 'No users match.'
          : null;
  return (
    <tbody>
      {message !== null && (
        <tr>
          <td colSpan={USER_COLUMNS} role={error ? 'alert' : 'status'}>
            {message}
          </td>
        </tr>
      )}
      {data?.users.edges.map(({ node }) => (
        <UserRow key={node.id} user={node} />
      ))}
    </tbody>
  );
}
