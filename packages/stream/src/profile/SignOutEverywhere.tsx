import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { formatAbsolute } from '../RelativeTime';
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

/** Ends one session of the viewer's account (another device). */
export const END_SESSION_MUTATION = graphql(`
  mutation EndSession($input: SessionIdInput!) {
    endSession(input: $input) {
      ok
    }
  }
`);

/** A signed-in session as the profile lists it. */
export interface DeviceSession {
  id: string;
  device: string;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

/**
 * Signed-in devices: each session of the account (browser and system, when it signed in, when it
 * was last used), with a button to end any but this one; and "Sign out everywhere" — a phone left
 * signed in, a shared computer, and the one way for a reader signed in by their site (SSO), who
 * has no password to change, to end sessions elsewhere. That ends this frame's session too, so it
 * forgets its token at once.
 */
export function SignOutEverywhere({ initial }: { initial: readonly DeviceSession[] }) {
  const { t, session, params } = useStreamEnv();
  const [, request] = useMutation(SIGN_OUT_EVERYWHERE_MUTATION);
  const [, endOne] = useMutation(END_SESSION_MUTATION);
  const [sessions, setSessions] = useState(initial);
  const action = useAction();
  const ending = useAction();
  return (
    <PanelSection title={t('profile.sessions.title')}>
      <ul class="parley-sessions" aria-label={t('profile.sessions.title')}>
        {sessions.map((s) => (
          <li key={s.id}>
            <span>
              {s.device || t('profile.sessions.unknown')}
              {s.current && ` · ${t('profile.sessions.current')}`}
            </span>{' '}
            <small>
              {t('profile.sessions.lastUsed', {
                when: formatAbsolute(s.lastUsedAt, params.locale),
              })}
            </small>{' '}
            {!s.current && (
              <button
                type="button"
                class="parley-link"
                disabled={ending.busy}
                aria-label={t('profile.sessions.endOne', {
                  device: s.device || t('profile.sessions.unknown'),
                  when: formatAbsolute(s.createdAt, params.locale),
                })}
                onClick={() => {
                  void ending
                    .run(() => endOne({ input: { id: s.id } }))
                    .then((done) => done && setSessions((all) => all.filter((o) => o.id !== s.id)));
                }}
              >
                {t('profile.sessions.end')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <ActionStatus state={ending.state} success={t('profile.sessions.ended')} />
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
