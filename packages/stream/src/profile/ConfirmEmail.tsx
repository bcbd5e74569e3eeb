import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Sends the viewer the link that confirms their email again. */
export const SEND_EMAIL_CONFIRMATION_MUTATION = graphql(`
  mutation SendEmailConfirmation {
    sendEmailConfirmation {
      user {
        id
        emailVerified
      }
    }
  }
`);

/**
 * "Confirm your email", shown while the viewer's address is unconfirmed: no notification email is
 * sent to it until then (an account from before sign-ups were confirmed by their code, or an
 * address changed since). "Send the link again" mails a fresh link.
 */
export function ConfirmEmail({ email }: { email: string }) {
  const { t } = useStreamEnv();
  const [, send] = useMutation(SEND_EMAIL_CONFIRMATION_MUTATION);
  const action = useAction();
  return (
    <PanelSection title={t('profile.confirm.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(() => send({}));
        }}
      >
        <p>{t('profile.confirm.intro', { email })}</p>
        <button type="submit" disabled={action.busy}>
          {t('profile.confirm.submit')}
        </button>
        <ActionStatus state={action.state} success={t('profile.confirm.sent', { email })} />
      </form>
    </PanelSection>
  );
}
