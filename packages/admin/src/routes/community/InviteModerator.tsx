import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { UserRowFields } from './UserRow';

/** Makes the account with an email a moderator, inviting a new person by email. */
export const INVITE_MUTATION = graphql(
  `
    mutation ConsoleInviteModerator($input: InviteModeratorInput!) {
      inviteModerator(input: $input) { user { ...UserRowFields } }
    }
  `,
  [UserRowFields],
);

/**
 * Invites a moderator by email (admins only). The address gets a link; the role is granted when
 * its reader opens it and chooses a password (a new address gets a commenter account to hold it).
 * Accounts made by a site's single sign-on cannot be invited.
 */
export function InviteModerator() {
  const id = useId();
  const t = useT();
  const errorText = useErrorText();
  const [email, setEmail] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; field: boolean } | null>(null);
  const [state, invite] = useMutation(INVITE_MUTATION);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    setError(null);
    const result = await invite({ input: { email: email.trim() } });
    if (result.error) {
      const err = toTransportError(result.error);
      setError({ text: errorText(err.code), field: err.field === 'email' });
      return;
    }
    const user = result.data?.inviteModerator.user;
    setDone(
      user?.role === 'MODERATOR' || user?.role === 'ADMIN'
        ? t('console.community.invite.alreadyModerates', { username: user.username })
        : user
          ? t('console.community.invite.sent', { email: email.trim(), username: user.username })
          : t('console.community.invite.sentNoName', { email: email.trim() }),
    );
    setEmail('');
  }

  return (
    <form className="invite" onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('console.community.invite.title')}</h2>
      <label htmlFor={`${id}-email`}>{t('console.community.invite.email')}</label>
      <div className="action-row">
        <input
          id={`${id}-email`}
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={error?.field === true}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="submit" disabled={state.fetching}>
          {t('console.community.invite.submit')}
        </button>
      </div>
      {error !== null && (
        <p id={`${id}-error`} role="alert">
          {error.text}
        </p>
      )}
      <p aria-live="polite" className="success">
        {done}
      </p>
    </form>
  );
}
