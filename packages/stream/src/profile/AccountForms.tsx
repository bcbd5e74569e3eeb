import { gql } from '@urql/core';
import { useMutation } from '@urql/preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from './ActionStatus';
import { PanelSection } from './PanelSection';
import { useAction } from './useAction';

/** Renames the viewer. */
export const UPDATE_USERNAME_MUTATION = gql`
  mutation UpdateUsername($input: UpdateUsernameInput!) {
    updateUsername(input: $input) {
      user {
        id
        username
      }
    }
  }
`;

/** Changes the viewer's email; the server asks for the current password. */
export const UPDATE_EMAIL_MUTATION = gql`
  mutation UpdateEmail($input: UpdateEmailInput!) {
    updateEmail(input: $input) {
      user {
        id
        email
        emailVerified
      }
    }
  }
`;

/** Changes the viewer's password; the answer carries the session's fresh token. */
export const UPDATE_PASSWORD_MUTATION = gql`
  mutation UpdatePassword($input: UpdatePasswordInput!) {
    updatePassword(input: $input) {
      token
      user {
        id
      }
    }
  }
`;

/** Change username: the new name, shown back as the server normalized it. */
export function UsernameForm({ current }: { current: string }) {
  const { t } = useStreamEnv();
  const [username, setUsername] = useState('');
  const [saved, setSaved] = useState(current);
  const [, update] = useMutation<{ updateUsername: { user: { username: string } | null } }>(
    UPDATE_USERNAME_MUTATION,
  );
  const action = useAction();
  return (
    <PanelSection title={t('profile.username.title')}>
      <form
        class="parley-form"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = await action.run(() => update({ input: { username } }));
          if (data) {
            setSaved(data.updateUsername.user?.username ?? username);
            setUsername('');
          }
        }}
      >
        <p>{t('profile.username.current', { username: saved })}</p>
        <label>
          {t('profile.username.label')}
          <input
            type="text"
            autoComplete="username"
            required
            value={username}
            onInput={(event) => setUsername(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          {t('profile.username.submit')}
        </button>
        <ActionStatus
          state={action.state}
          success={t('profile.username.saved', { username: saved })}
        />
      </form>
    </PanelSection>
  );
}

/** Change email: the new address and the current password (UpdateEmailInput requires it). */
export function EmailForm({ current }: { current: string | null }) {
  const { t } = useStreamEnv();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [saved, setSaved] = useState(current);
  const [, update] = useMutation<{ updateEmail: { user: { email: string | null } | null } }>(
    UPDATE_EMAIL_MUTATION,
  );
  const action = useAction();
  return (
    <PanelSection title={t('profile.email.title')}>
      <form
        class="parley-form"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = await action.run(() => update({ input: { email, password } }));
          // The password is cleared either way: it must not linger in the page after use.
          setPassword('');
          if (data) {
            setSaved(data.updateEmail.user?.email ?? email);
            setEmail('');
          }
        }}
      >
        {saved !== null && <p>{t('profile.email.current', { email: saved })}</p>}
        <label>
          {t('profile.email.label')}
          <input
            type="email"
            autoComplete="email"
            required
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
        </label>
        <label>
          {t('profile.currentPassword')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          {t('profile.email.submit')}
        </button>
        <ActionStatus
          state={action.state}
          success={t('profile.email.saved', { email: saved ?? '' })}
        />
      </form>
    </PanelSection>
  );
}

/**
 * Change password: current and new. The server ends every other session and answers a fresh
 * token for this one, which replaces the old (no longer valid) token in the session.
 */
export function PasswordForm() {
  const { t, session } = useStreamEnv();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [, update] = useMutation<{ updatePassword: { token: string | null } }>(
    UPDATE_PASSWORD_MUTATION,
  );
  const action = useAction();
  return (
    <PanelSection title={t('profile.password.title')}>
      <form
        class="parley-form"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = await action.run(() => update({ input: { oldPassword, newPassword } }));
          setOldPassword('');
          if (data) {
            setNewPassword('');
            const { token } = data.updatePassword;
            // Same user, new epoch: renew keeps the tab and its "changed" message on screen.
            if (token) await session.renew(token);
          }
        }}
      >
        <label>
          {t('profile.currentPassword')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={oldPassword}
            onInput={(event) => setOldPassword(event.currentTarget.value)}
          />
        </label>
        <label>
          {t('profile.password.new')}
          <input
            type="password"
            autoComplete="new-password"
            required
            value={newPassword}
            onInput={(event) => setNewPassword(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          {t('profile.password.submit')}
        </button>
        <ActionStatus state={action.state} success={t('profile.password.saved')} />
      </form>
    </PanelSection>
  );
}
