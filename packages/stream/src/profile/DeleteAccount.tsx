import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { ACCOUNT_DELETION_GRACE_DAYS } from './profileDefaults';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Schedules the viewer's account for deletion after the grace period. */
export const REQUEST_DELETION_MUTATION = graphql(`
  mutation RequestAccountDeletion {
    requestAccountDeletion {
      user {
        id
        deletionRequestedAt
      }
    }
  }
`);

/** Withdraws a deletion request. */
export const CANCEL_DELETION_MUTATION = graphql(`
  mutation CancelAccountDeletion {
    cancelAccountDeletion {
      user {
        id
        deletionRequestedAt
      }
    }
  }
`);

const DAY_MS = 86_400_000;

/**
 * Delete account. Typing one's username is the confirmation (a dialog is clicked through out of
 * habit); once asked, the tab shows when the deletion happens and offers to cancel it.
 */
export function DeleteAccount({
  username,
  requestedAt: initial,
}: {
  username: string;
  requestedAt: string | null;
}) {
  const { t, params } = useStreamEnv();
  const [requestedAt, setRequestedAt] = useState(initial);
  const [confirm, setConfirm] = useState('');
  const [, request] = useMutation(REQUEST_DELETION_MUTATION);
  const [, cancel] = useMutation(CANCEL_DELETION_MUTATION);
  const action = useAction();
  const confirmed = confirm.trim() === username;

  if (requestedAt !== null) {
    const date = new Date(new Date(requestedAt).getTime() + ACCOUNT_DELETION_GRACE_DAYS * DAY_MS);
    return (
      <PanelSection title={t('profile.delete.title')}>
        <p role="status">
          {t('profile.delete.scheduled', {
            date: date.toLocaleDateString(params.locale, { dateStyle: 'long' }),
          })}
        </p>
        <button
          type="button"
          disabled={action.busy}
          onClick={async () => {
            const data = await action.run(() => cancel({}));
            if (data) {
              setRequestedAt(data.cancelAccountDeletion.user?.deletionRequestedAt ?? null);
              setConfirm('');
            }
          }}
        >
          {t('profile.delete.cancel')}
        </button>
        {action.state.status === 'failed' && (
          <p class="parley-action-error" role="alert">
            {t(`error.${action.state.code}`, action.state.vars)}
          </p>
        )}
      </PanelSection>
    );
  }

  return (
    <PanelSection title={t('profile.delete.title')}>
      <form
        class="parley-form"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!confirmed) return;
          const data = await action.run(() => request({}));
          const at = data?.requestAccountDeletion.user?.deletionRequestedAt;
          if (at) setRequestedAt(at);
        }}
      >
        <p>
          {t('profile.delete.intro', {
            days: ACCOUNT_DELETION_GRACE_DAYS,
            count: ACCOUNT_DELETION_GRACE_DAYS,
          })}
        </p>
        <label>
          {t('profile.delete.confirm', { username })}
          <input
            type="text"
            autoComplete="off"
            value={confirm}
            onInput={(event) => setConfirm(event.currentTarget.value)}
          />
        </label>
        <button type="submit" class="parley-danger" disabled={!confirmed || action.busy}>
          {t('profile.delete.submit')}
        </button>
        <ActionStatus state={action.state} success={t('profile.delete.cancelled')} />
      </form>
    </PanelSection>
  );
}
