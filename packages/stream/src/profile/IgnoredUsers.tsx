import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';
import type { ProfileViewer } from './ProfileTab';

/** Shows a user's comments to the viewer again. */
export const UNIGNORE_USER_MUTATION = graphql(`
  mutation UnignoreUser($input: UserIdInput!) {
    unignoreUser(input: $input) {
      user {
        id
      }
    }
  }
`);

/** A user the viewer ignores. */
export type IgnoredUser = NonNullable<ProfileViewer['ignoredUsers']>[number];

/** The ignored users, each with "Stop ignoring". */
export function IgnoredUsers({ initial }: { initial: IgnoredUser[] }) {
  const { t } = useStreamEnv();
  const [users, setUsers] = useState(initial);
  const [last, setLast] = useState('');
  const [, unignore] = useMutation(UNIGNORE_USER_MUTATION);
  const action = useAction();
  return (
    <PanelSection title={t('profile.ignored.title')}>
      {users.length === 0 ? (
        <p>{t('profile.ignored.empty')}</p>
      ) : (
        <ul class="parley-ignored">
          {users.map((user) => (
            <li key={user.id}>
              {user.username}{' '}
              <button
                type="button"
                disabled={action.busy}
                // The visible text is the same on every row; the name says whom it is about.
                aria-label={t('profile.ignored.stopUser', { username: user.username })}
                onClick={async () => {
                  const data = await action.run(() => unignore({ input: { userId: user.id } }));
                  if (data) {
                    setLast(user.username);
                    setUsers((list) => list.filter((u) => u.id !== user.id));
                  }
                }}
              >
                {t('profile.ignored.stop')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ActionStatus
        state={action.state}
        success={t('profile.ignored.stopped', { username: last })}
      />
    </PanelSection>
  );
}
