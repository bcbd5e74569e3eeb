import { useState } from 'react';
import { ROLES } from '@parley/contract';
import { graphql } from '@parley/transport/graphql';
import type { VariablesOf } from '@parley/transport/graphql';
import { CursorTable } from '../CursorTable';
import { FilterSelect, SearchField } from '../FilterFields';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
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
const KINDS: readonly { value: Kind; label: ConsoleMessageKey }[] = [
  { value: 'MEMBERS', label: 'console.community.kind.MEMBERS' },
  { value: 'GUESTS', label: 'console.community.kind.GUESTS' },
];

/**
 * `/admin/community`: every user, members and guests, searchable and filterable, with role and
 * status actions and each one's comments (the moderation drawer); the banned networks below.
 */
export function CommunityPage() {
  const viewer = useViewer();
  const t = useT();
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
      <h1>{t('console.community.title')}</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <SearchField
          id="community-search"
          placeholder={t('console.community.search.placeholder')}
          value={search}
          onChange={setSearch}
        />
        <FilterSelect
          id="community-role"
          label={t('console.community.filter.role')}
          all={t('console.community.filter.allRoles')}
          options={ROLES.map((r) => ({ value: r, label: t(LABELS[r]) }))}
          value={role}
          onChange={setRole}
        />
        <FilterSelect
          id="community-status"
          label={t('console.community.filter.status')}
          all={t('console.community.filter.allStatuses')}
          options={USER_STATUSES.map((s) => ({ value: s, label: t(LABELS[s]) }))}
          value={status}
          onChange={setStatus}
        />
        <FilterSelect
          id="community-kind"
          label={t('console.community.filter.kind')}
          all={t('console.community.filter.allKinds')}
          options={KINDS.map((k) => ({ value: k.value, label: t(k.label) }))}
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
  const t = useT();
  return (
    <CursorTable
      caption={t('console.community.users.caption')}
      head={
        <>
          <th scope="col">{t('console.community.users.username')}</th>
          <th scope="col">{t('console.community.users.email')}</th>
          <th scope="col">{t('console.community.users.role')}</th>
          <th scope="col">{t('console.community.users.status')}</th>
          <th scope="col">{t('console.community.users.memberSince')}</th>
          <th scope="col">
            <span className="visually-hidden">{t('console.community.users.actions')}</span>
          </th>
        </>
      }
      columns={USER_COLUMNS}
      query={USERS_QUERY}
      filters={filters}
      pageSize={USERS_PAGE_SIZE}
      connection={(data) => data.users}
      empty={t('console.community.users.empty')}
      row={(node) => <UserRow key={node.id} user={node} onComments={onComments} />}
    />
  );
}
