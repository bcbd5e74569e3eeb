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
import { IpBansSection } from './IpBans';
import { UserDrawer } from '../moderate/UserDrawer';
import { CursorPageInfoFields } from './useCursorList';
import { USER_COLUMNS, UserRowFields, UserRow } from './UserRow';
import { useDebouncedValue } from './useDebouncedValue';

/** The community table: one page of users matching the filters. */
export const USERS_QUERY = graphql(
  `
    query ConsoleUsers(
      $query: String
      $role: Role
      $status: UserStatus
      $guest: Boolean
      $first: Int
      $after: String
    ) {
      users(
        query: $query
        role: $role
        status: $status
        guest: $guest
        first: $first
        after: $after
      ) {
        edges { cursor node { ...UserRowFields } }
        pageInfo { ...CursorPageInfoFields }
      }
    }
  `,
  [UserRowFields, CursorPageInfoFields],
);

type Filters = Omit<VariablesOf<typeof USERS_QUERY>, 'after' | 'first'>;

/** The kind filter: members (accounts) or guests (a name, no account). */
type Kind = 'MEMBERS' | 'GUESTS';
const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'MEMBERS', label: 'Members' },
  { value: 'GUESTS', label: 'Guests' },
];

/**
 * `/admin/community`: every user, members and guests, searchable and filterable, with role and
 * status actions and each one's comments (the moderation drawer); the banned networks below.
 */
export function CommunityPage() {
  const viewer = useViewer();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [status, setStatus] = useState<UserStatus | ''>('');
  const [kind, setKind] = useState<Kind | ''>('');
  const [drawer, setDrawer] = useState<string | null>(null);
  const query = useDebouncedValue(search.trim());
  const filters: Filters = {
    query: query === '' ? null : query,
    role: role === '' ? null : role,
    status: status === '' ? null : status,
    guest: kind === '' ? null : kind === 'GUESTS',
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
        <FilterSelect
          id="community-kind"
          label="Kind"
          all="Members and guests"
          options={KINDS}
          value={kind}
          onChange={setKind}
        />
      </form>
      <UserTable key={JSON.stringify(filters)} filters={filters} onComments={setDrawer} />
      {drawer !== null && <UserDrawer userId={drawer} onClose={() => setDrawer(null)} />}
      <IpBansSection />
      {isAdmin(viewer) && <InviteModerator />}
    </main>
  );
}

function UserTable({
  filters,
  onComments,
}: {
  filters: Filters;
  onComments: (userId: string) => void;
}) {
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
      row={(node) => <UserRow key={node.id} user={node} onComments={onComments} />}
    />
  );
}
