import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Moves the comments of guests who confirmed the viewer's address to the account. */
export const CLAIM_GUEST_COMMENTS_MUTATION = graphql(`
  mutation ClaimGuestComments {
    claimGuestComments {
      claimed
    }
  }
`);

/**
 * "Your comments as a guest", shown while guests who confirmed the viewer's (confirmed) address
 * wrote comments: one click makes them the account's, under its name.
 */
export function ClaimGuestComments({ count }: { count: number }) {
  const { t } = useStreamEnv();
  const [, claim] = useMutation(CLAIM_GUEST_COMMENTS_MUTATION);
  const action = useAction();
  const [claimed, setClaimed] = useState<number | null>(null);
  return (
    <PanelSection title={t('profile.claim.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action
            .run(() => claim({}))
            .then((data) => data && setClaimed(data.claimGuestComments.claimed));
        }}
      >
        <p>{t('profile.claim.intro', { count })}</p>
        <button type="submit" disabled={action.busy || claimed !== null}>
          {t('profile.claim.submit')}
        </button>
        <ActionStatus
          state={action.state}
          success={t('profile.claim.done', { count: claimed ?? 0 })}
        />
      </form>
    </PanelSection>
  );
}
