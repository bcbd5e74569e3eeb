import { useClient } from '@urql/preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { graphql } from '@parley/transport/graphql';
import { useStreamEnv } from './StreamContext';
import type { MessagesPart } from './messages';
import { messages as accountErrors } from './messages/en/accountErrors';
import { messages as guest } from './messages/en/guest';
import { ActionStatus } from './panels/ActionStatus';
import { useAction } from './panels/useAction';

// A chunk of its own: only a signed-out reader who presses Post where guests may comment needs it.

const en = { ...guest, ...accountErrors };

/** The form's text, with the account forms' errors (GUEST_NAME_TAKEN among them). */
export const messages: MessagesPart<keyof typeof en> = {
  en,
  es: () =>
    Promise.all([import('./messages/es/guest'), import('./messages/es/accountErrors')]).then(
      ([es, esErrors]) => ({ messages: { ...es.messages, ...esErrors.messages } }),
    ),
};

/** A session for a new guest (the server checks the name against members' usernames). */
export const START_GUEST_SESSION = graphql(
  `mutation StartGuestSession($input:StartGuestSessionInput!){startGuestSession(input:$input){token}}`,
);

/** Props of {@link GuestForm}. */
export interface GuestFormProps {
  /** The guest's session is about to start: the composer posts its draft once it has. */
  onStarted(): void;
  /** The reader would rather sign in (the popup). */
  onSignIn(): void;
  onCancel(): void;
}

/**
 * Under the comment box of a signed-out reader, where the site lets guests comment: a name and an
 * optional email, then the guest's session starts and the draft is posted as theirs (Composer).
 */
export function GuestForm({ onStarted, onSignIn, onCancel }: GuestFormProps) {
  const { t, session } = useStreamEnv();
  const client = useClient();
  const action = useAction();
  const id = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  // Keyboard and screen-reader users land in the form that appeared.
  useEffect(() => first.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = name.trim();
    setMissing([...trimmed].length < 2);
    if ([...trimmed].length < 2) return first.current?.focus();
    const data = await action.run(() =>
      client
        .mutation(START_GUEST_SESSION, { input: { name: trimmed, email: email.trim() || null } })
        .toPromise(),
    );
    if (data) {
      onStarted();
      await session.signIn(data.startGuestSession.token);
    }
  };

  return (
    <form class="parley-guest" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <p id={`${id}-title`} class="parley-guest-title">
        <strong>{t('guest.title')}</strong> {t('guest.explain')}
      </p>
      <label for={`${id}-name`}>{t('guest.name')}</label>
      <input
        ref={first}
        id={`${id}-name`}
        autoComplete="name"
        maxLength={30}
        value={name}
        aria-invalid={missing}
        aria-describedby={missing ? `${id}-missing` : undefined}
        onInput={(event) => setName(event.currentTarget.value)}
      />
      {missing && (
        <p id={`${id}-missing`} class="parley-action-error" role="alert">
          {t('guest.nameMissing')}
        </p>
      )}
      <label for={`${id}-email`}>{t('guest.email')}</label>
      <input
        id={`${id}-email`}
        type="email"
        autoComplete="email"
        maxLength={100}
        value={email}
        aria-describedby={`${id}-hint`}
        onInput={(event) => setEmail(event.currentTarget.value)}
      />
      <p id={`${id}-hint`} class="parley-hint">
        {t('guest.emailHint')}
      </p>
      <div class="parley-composer-foot">
        <button type="button" onClick={onCancel}>
          {t('guest.cancel')}
        </button>
        <button type="button" onClick={onSignIn}>
          {t('guest.signIn')}
        </button>
        <button type="submit" class="parley-primary" disabled={action.busy}>
          {t('guest.post')}
        </button>
      </div>
      <ActionStatus state={action.state} success="" />
    </form>
  );
}
