import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'wouter';
import { Field } from '../login/Field';
import { AccountFrame, TokenProblem } from './AccountFrame';
import { useTokenMutation } from './useTokenMutation';

/** Sets a new password with the emailed link's token. */
export const RESET_PASSWORD_MUTATION = `mutation AccountResetPassword($input: ResetPasswordInput!) {
  resetPassword(input: $input) { token user { id username } }
}`;

interface ResetData {
  resetPassword: { token: string; user: { id: string; username: string } };
}

// The server's PASSWORD_MIN_LENGTH (packages/server/src/defaults.ts).
const PASSWORD_MIN_LENGTH = 8;
// How to get a link that works, for a link that does not.
const AGAIN = 'Ask for a new link with “Forgot password?” where you sign in.';

/**
 * `/account/reset-password#token=…`: a new password, typed twice. The answer's session token is
 * not kept: this page serves commenters too, whose session belongs to the widget, not the console.
 */
export function ResetPasswordPage() {
  const [state, run] = useTokenMutation<ResetData>(RESET_PASSWORD_MUTATION);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      password:
        [...password].length < PASSWORD_MIN_LENGTH
          ? `Use at least ${PASSWORD_MIN_LENGTH} characters.`
          : undefined,
      confirm: confirm !== password ? 'The passwords do not match.' : undefined,
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    void run({ password });
  }

  if (state.kind === 'done') {
    return (
      <AccountFrame title="Choose a new password">
        <p role="status" className="success">
          Your password is changed, {state.data.resetPassword.user.username}. Other devices were
          signed out. Sign in with the new password where you comment, or{' '}
          <Link href="/admin/login">in the console</Link>.
        </p>
      </AccountFrame>
    );
  }
  if (state.kind === 'dead') {
    return (
      <AccountFrame title="Choose a new password">
        <TokenProblem code={state.code} again={AGAIN} />
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title="Choose a new password">
      {state.kind === 'failed' && <TokenProblem code={state.code} again={AGAIN} />}
      <form onSubmit={submit} noValidate>
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          value={password}
          error={errors.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          error={errors.confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={state.kind === 'sending'}>
            Save new password
          </button>
        </div>
      </form>
    </AccountFrame>
  );
}
