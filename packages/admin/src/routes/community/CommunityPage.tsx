import { useState } from 'react';
import { ROLES } from '@parley/contract';
import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import { CursorTable } from '../CursorTable';
import { FilterSelect, SearchField } from '../FilterFields';
import { isAdmin, useViewer } from '../../Viewer';
import type { Role } from '../../Viewer';
import { LABELS, USER_STATUSES, USERS_PAGE_SIZE } from './communityQueries';
import type { UserStatus } from './communityQueries';
import { InviteModerator } from './InviteModerator';
import { CursorPageInfoFields } from './useCursorList';
import { USER_COLUMNS, UserRowFields, UserRow } from './UserRow';
import { useDebouncedValue } from './useDebouncedValue';

/** The community table: one page of users matching the filters. */
export const USERS_QUERY = graphql(
  `
    query ConsoleUsers($query: String, $role: Role, $status: UserStatus, $first: Int, $after: String) {
      users(query: $query, role: $role, status: $status, first: $first, after: $after) {
        edges { cursor node { ...UserRowFields } }
        pageInfo { ...CursorPageInfoFields }
      }
    }
  `,
  [UserRowFields, CursorPageInfoFields],
);

type Filters = Omit<VariablesOf<typeof USERS_QUERY>, 'after' | 'first'>;

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
        <SearchField
          id="community-search"
          placeholder="Username or email"
          value={search}
          onChange={setSearch}
        />
        <FilterSelect
          id="community-role"
          label="Role"
          all="All roles"
          options={ROLES.map((r) => ({ value: r, label: LABELS[r] }))}
          value={role}
          onChange={setRole}
        />
        <FilterSelect
          id="community-status"
          label="Status"
          all="All statuses"
          options={USER_STATUSES.map((s) => ({ value: s, label: LABELS[s] }))}
          value={status}
          onChange={setStatus}
        />
      </form>
      <UserTable key={JSON.stringify(filters)} filters={filters} />
      {isAdmin(viewer) && <InviteModerator />}
    </main>
  );
}

function UserTable({ filters }: { filters: Filters }) {
  return (
    <CursorTable
      caption="Users"
      head={
        <>
          <th scope="col">Username</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Status</th>
          <th scope="col">Member since</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
      columns={USER_COLUMNS}
      query={USERS_QUERY}
      filters={filters}
      pageSize={USERS_PAGE_SIZE}
      connection={(data) => data.users}
      empty="No users match."
      row={(node) => <UserRow key={node.id} user={node} />}
    />
  );
}
