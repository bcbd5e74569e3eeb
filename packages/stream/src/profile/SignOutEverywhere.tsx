import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';

/** Ends every session of the viewer's account, this one included. */
export const SIGN_OUT_EVERYWHERE_MUTATION = graphql(`
  mutation SignOutEverywhere {
    signOutEverywhere {
      ok
    }
  }
`);

/**
 * "Sign out everywhere": a phone left signed in, a shared computer. The one way for a reader
 * signed in by their site (SSO), who has no password to change, to end sessions elsewhere. This
 * frame's session ends too, so it forgets its token at once.
 */
export function SignOutEverywhere() {
  const { t, session } = useStreamEnv();
  const [, request] = useMutation(SIGN_OUT_EVERYWHERE_MUTATION);
  const action = useAction();
  return (
    <PanelSection title={t('profile.sessions.title')}>
      <form
        class="parley-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(() => request({})).then((done) => done && session.signOut());
        }}
      >
        <p>{t('profile.sessions.intro')}</p>
        <button type="submit" disabled={action.busy}>
          {t('profile.sessions.submit')}
        </button>
        <ActionStatus state={action.state} success={t('profile.sessions.done')} />
      </form>
    </PanelSection>
  );
}
