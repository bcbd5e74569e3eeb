import { graphql } from '@parley/transport/graphql';
import { useMutation } from '@urql/preact';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useStreamEnv } from '../StreamContext';
import { ActionStatus } from '../panels/ActionStatus';
import { PanelSection } from '../panels/PanelSection';
import { useAction } from '../panels/useAction';
import type { Action } from '../panels/useAction';

/** Renames the viewer. */
export const UPDATE_USERNAME_MUTATION = graphql(`
  mutation UpdateUsername($input: UpdateUsernameInput!) {
    updateUsername(input: $input) {
      user {
        id
        username
      }
    }
  }
`);

/** Changes the viewer's email; the server asks for the current password. */
export const UPDATE_EMAIL_MUTATION = graphql(`
  mutation UpdateEmail($input: UpdateEmailInput!) {
    updateEmail(input: $input) {
      user {
        id
        email
        emailVerified
      }
    }
  }
`);

/** Changes the viewer's password; the answer carries the session's fresh token. */
export const UPDATE_PASSWORD_MUTATION = graphql(`
  mutation UpdatePassword($input: UpdatePasswordInput!) {
    updatePassword(input: $input) {
      token
      user {
        id
      }
    }
  }
`);

/** Change username: the new name, shown back as the server normalized it. */
export function UsernameForm({ current }: { current: string }) {
  const { t } = useStreamEnv();
  const [username, setUsername] = useState('');
  const [saved, setSaved] = useState(current);
  const [, update] = useMutation(UPDATE_USERNAME_MUTATION);
  const action = useAction();
  return (
    <AccountForm
      title={t('profile.username.title')}
      submit={t('profile.username.submit')}
      success={t('profile.username.saved', { username: saved })}
      action={action}
      onSubmit={async () => {
        const data = await action.run(() => update({ input: { username } }));
        if (data) {
          setSaved(data.updateUsername.user?.username ?? username);
          setUsername('');
        }
      }}
    >
      <p>{t('profile.username.current', { username: saved })}</p>
      <LabelledInput
        label={t('profile.username.label')}
        autoComplete="username"
        value={username}
        onValue={setUsername}
      />
    </AccountForm>
  );
}

/** Change email: the new address and the current password (UpdateEmailInput requires it). */
export function EmailForm({ current }: { current: string | null }) {
  const { t } = useStreamEnv();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [saved, setSaved] = useState(current);
  const [, update] = useMutation(UPDATE_EMAIL_MUTATION);
  const action = useAction();
  return (
    <AccountForm
      title={t('profile.email.title')}
      submit={t('profile.email.submit')}
      success={t('profile.email.saved', { email: saved ?? '' })}
      action={action}
      onSubmit={async () => {
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
      <LabelledInput
        label={t('profile.email.label')}
        autoComplete="email"
        value={email}
        onValue={setEmail}
      />
      <LabelledInput
        label={t('profile.currentPassword')}
        autoComplete="current-password"
        value={password}
        onValue={setPassword}
      />
    </AccountForm>
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
  const [, update] = useMutation(UPDATE_PASSWORD_MUTATION);
  const action = useAction();
  return (
    <AccountForm
      title={t('profile.password.title')}
      submit={t('profile.password.submit')}
      success={t('profile.password.saved')}
      action={action}
      onSubmit={async () => {
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
      <LabelledInput
        label={t('profile.currentPassword')}
        autoComplete="current-password"
        value={oldPassword}
        onValue={setOldPassword}
      />
      <LabelledInput
        label={t('profile.password.new')}
        autoComplete="new-password"
        value={newPassword}
        onValue={setNewPassword}
      />
    </AccountForm>
  );
}

/** A section of the profile with one form: its fields, the submit button and the outcome. */
function AccountForm({
  title,
  submit,
  success,
  action,
  onSubmit,
  children,
}: {
  title: string;
  submit: string;
  success: string;
  action: Action;
  onSubmit: () => Promise<void>;
  children: ComponentChildren;
}) {
  return (
    <PanelSection title={title}>
      <form
        class="parley-form"
        onSubmit={async (event) => {
          event.preventDefault();
          await onSubmit();
        }}
      >
        {children}
        <button type="submit" disabled={action.busy}>
          {submit}
        </button>
        <ActionStatus state={action.state} success={success} />
      </form>
    </PanelSection>
  );
}

/** The input type of each autofill hint the profile's forms use. */
const INPUT_TYPES = {
  username: 'text',
  email: 'email',
  'current-password': 'password',
  'new-password': 'password',
} as const;

/** A required input inside its label (the label's text is its accessible name). */
function LabelledInput({
  label,
  autoComplete,
  value,
  onValue,
}: {
  label: string;
  /** The browser's autofill hint, which also decides the input's type. */
  autoComplete: keyof typeof INPUT_TYPES;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <input
        // Preact's types split inputs by `type` only to say which allow a `role`; this sets none.
        type={INPUT_TYPES[autoComplete] as 'text'}
        autoComplete={autoComplete}
        required
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
    </label>
  );
}
