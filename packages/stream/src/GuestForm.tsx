import { useClient } from '@urql/preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { GUEST_NAME_MAX_LENGTH, GUEST_NAME_MIN_LENGTH } from '@parley/contract';
import { graphql } from '@parley/transport/graphql';
import { answeringChallenges } from '@parley/transport/sign-in';
import { Trap } from './auth/AuthFieldsForm';
import { openAuthPopup } from './auth/openAuthPopup';
import { GUEST_SESSION_WAIT_MS } from './Composer';
import { useStreamEnv } from './StreamContext';
import type { StreamEnv } from './StreamContext';
import { loadStylesheet, PANELS_STYLESHEET } from './loadStylesheet';
import { withMessages } from './messages';
import { withAccountErrors } from './messages/withAccountErrors';
import { messages as guest } from './messages/en/guest';
import { ActionStatus } from './panels/ActionStatus';
import { useAction } from './panels/useAction';

// A chunk of its own: only a signed-out reader who presses Post where guests may comment needs it.

/** The form's text, with the account forms' errors (GUEST_NAME_TAKEN among them). */
export const messages = withAccountErrors(guest);

/**
 * Readies the chunk's text in the reader's language (the guests' refusals too) and, to show the
 * form, the panels' stylesheet it uses.
 */
export const prepare = (env: StreamEnv, form = false) =>
  Promise.all([
    withMessages(env, messages),
    form && loadStylesheet(env.window.document, PANELS_STYLESHEET),
  ]);

/** The name's length rule, as the messages say it (the server's, @parley/contract). */
const NAME_LENGTH = { min: GUEST_NAME_MIN_LENGTH, max: GUEST_NAME_MAX_LENGTH };

/** A session for a new guest (the server checks the name against members' usernames). */
export const START_GUEST_SESSION = graphql(
  `mutation StartGuestSession($input:StartGuestSessionInput!){startGuestSession(input:$input){token}}`,
);

/**
 * The draft a new guest session is to post: the frame remounts the stream for the new session
 * (App), and the composer of this draft posts it when it mounts as the guest — within
 * {@link GUEST_SESSION_WAIT_MS}: a box that did not come back at once (its comment further down, or
 * the reader signed out) never posts by itself later.
 */
let pending: { draftKey: string; until: number } | null = null;

/** Whether the composer of `draftKey` is to post its draft now (once). */
export function takePending(draftKey: string): boolean {
  const mine = pending?.draftKey === draftKey && Date.now() < pending.until;
  if (mine || (pending !== null && Date.now() >= pending.until)) pending = null;
  return mine;
}

/** Props of {@link GuestForm}. */
export interface GuestFormProps {
  /** The composer's draft, posted once the guest's session has started. */
  draftKey: string;
  /** The session is about to start (the stream then remounts: a reply box reopens). */
  onStarted(): void;
  onCancel(): void;
}

/**
 * Under the comment box of a signed-out reader, where the site lets guests comment: a name and an
 * optional email, then the guest's session starts and the draft is posted as theirs (Composer).
 */
export function GuestForm({ draftKey, onStarted, onCancel }: GuestFormProps) {
  const env = useStreamEnv();
  const { t, session } = env;
  const client = useClient();
  const action = useAction();
  const id = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const trap = useRef<HTMLInputElement>(null);
  // Keyboard and screen-reader users land in the form that appeared.
  useEffect(() => first.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = name.trim();
    const short = [...trimmed].length < GUEST_NAME_MIN_LENGTH;
    setMissing(short);
    if (short) return first.current?.focus();
    const website = trap.current?.value ?? '';
    // A new guest's proof of work (auth/botCheck.ts on the server), solved here unseen.
    const data = await action.run(() =>
      answeringChallenges((answer) =>
        client
          .mutation(START_GUEST_SESSION, {
            input: {
              name: trimmed,
              email: email.trim() || null,
              locale: env.params.locale,
              website,
              ...answer,
            },
          })
          .toPromise(),
      ),
    );
    if (data) {
      pending = { draftKey, until: Date.now() + GUEST_SESSION_WAIT_MS };
      onStarted();
      await session.signIn(data.startGuestSession.token);
    }
  };

  // What is wrong, said at the field it is about: a name missing here, or one the server refused
  // (a member's, or not a name), an address it refused; anything else under the buttons.
  const failed = action.state.status === 'failed' ? action.state : null;
  const taken = failed?.code === 'GUEST_NAME_TAKEN';
  const nameProblem = missing
    ? t('guest.nameMissing', NAME_LENGTH)
    : taken
      ? t('error.GUEST_NAME_TAKEN')
      : failed?.field === 'name'
        ? t('guest.nameInvalid', NAME_LENGTH)
        : null;
  const emailProblem = failed?.field === 'email' ? t('guest.emailInvalid') : null;
  return (
    <form class="parley-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <p id={`${id}-title`}>
        <strong>{t('guest.title')}</strong> {t('guest.explain')}
      </p>
      <label for={`${id}-name`}>{t('guest.name')}</label>
      <input
        ref={first}
        id={`${id}-name`}
        autoComplete="name"
        aria-required="true"
        value={name}
        aria-invalid={nameProblem !== null}
        aria-describedby={nameProblem !== null ? `${id}-problem` : undefined}
        onInput={(event) => setName(event.currentTarget.value)}
      />
      {nameProblem !== null && (
        <p id={`${id}-problem`} class="parley-action-error" role="alert">
          {nameProblem}
        </p>
      )}
      <label for={`${id}-email`}>{t('guest.email')}</label>
      <input
        id={`${id}-email`}
        type="email"
        autoComplete="email"
        maxLength={100}
        value={email}
        aria-invalid={emailProblem !== null}
        aria-describedby={emailProblem !== null ? `${id}-email-problem ${id}-hint` : `${id}-hint`}
        onInput={(event) => setEmail(event.currentTarget.value)}
      />
      {emailProblem !== null && (
        <p id={`${id}-email-problem`} class="parley-action-error" role="alert">
          {emailProblem}
        </p>
      )}
      <p id={`${id}-hint`} class="parley-hint">
        {t('guest.emailHint')}
      </p>
      <Trap field={trap} />
      <div class="parley-composer-foot">
        <button type="button" onClick={onCancel}>
          {t('guest.cancel')}
        </button>
        <button type="button" onClick={() => openAuthPopup(env, 'signin')}>
          {t('guest.signIn')}
        </button>
        <button type="submit" class="parley-primary" disabled={action.busy}>
          {t('guest.post')}
        </button>
      </div>
      {nameProblem === null && emailProblem === null && (
        <ActionStatus state={action.state} success="" />
      )}
    </form>
  );
}
