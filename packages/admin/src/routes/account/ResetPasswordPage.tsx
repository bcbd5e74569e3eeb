import { PASSWORD_MIN_LENGTH } from '@parley/contract';
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { TypedDocumentNode } from 'urql';
import { Link } from 'wouter';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf, VariablesOf } from '@parley/transport/graphql';
import { Field } from '../../Field';
import { useT } from '../../i18n';
import { AccountFrame, TokenProblem } from './AccountFrame';
import { useTokenMutation } from './useTokenMutation';

/** Sets a new password with the emailed link's token. */
export const RESET_PASSWORD_MUTATION = graphql(`
  mutation AccountResetPassword($input: ResetPasswordInput!) {
    resetPassword(input: $input) { token user { id username } }
  }
`);

/** Accepts an admin's invitation: sets the password, then the role is granted. */
export const ACCEPT_INVITE_MUTATION = graphql(`
  mutation AccountAcceptInvite($input: ResetPasswordInput!) {
    acceptModeratorInvite(input: $input) { token user { id username } }
  }
`);

/** What both mutations answer, each under its own field name. */
type PasswordTokenData = Record<string, ResultOf<typeof RESET_PASSWORD_MUTATION>['resetPassword']>;

/** What differs between the pages that set a password with an emailed token. */
interface PasswordTokenPageProps<Data extends PasswordTokenData> {
  /**
   * The mutation, taking `{ token, password }` (`ResetPasswordInput`). Its one field answers the
   * account, whatever the field's name.
   */
  mutation: TypedDocumentNode<Data, VariablesOf<typeof RESET_PASSWORD_MUTATION>>;
  /** Page title. */
  title: string;
  /** Label of the submit button. */
  submitLabel: string;
  /** What a dead link's page says to do instead. */
  again: string;
  /**
   * The success sentence, in three pieces around its link to the console's sign-in page: the text
   * before it (for the account's username), the link's text, the text after it.
   */
  done: { before: (username: string) => string; link: string; after: string };
}

/**
 * `/account/reset-password#token=…`: a new password, typed twice. The answer's session token is
 * not kept: this page serves commenters too, whose session belongs to the widget, not the console.
 */
export function ResetPasswordPage() {
  const t = useT();
  return (
    <PasswordTokenPage
      mutation={RESET_PASSWORD_MUTATION}
      title={t('console.account.resetPassword.title')}
      submitLabel={t('console.account.resetPassword.submit')}
      again={t('console.account.resetPassword.again')}
      done={{
        before: (username) => t('console.account.resetPassword.done.before', { username }),
        link: t('console.account.resetPassword.done.link'),
        after: t('console.account.resetPassword.done.after'),
      }}
    />
  );
}

/**
 * `/account/accept-invite#token=…`: an admin's invitation to moderate. Choosing the password is
 * the acceptance: it proves the reader of the invited mailbox wants the role, and ends every
 * other session of the account.
 */
export function AcceptInvitePage() {
  const t = useT();
  return (
    <PasswordTokenPage
      mutation={ACCEPT_INVITE_MUTATION}
      title={t('console.account.acceptInvite.title')}
      submitLabel={t('console.account.acceptInvite.submit')}
      again={t('console.account.acceptInvite.again')}
      done={{
        before: (username) => t('console.account.acceptInvite.done.before', { username }),
        link: t('console.account.acceptInvite.done.link'),
        after: t('console.account.acceptInvite.done.after'),
      }}
    />
  );
}

function PasswordTokenPage<Data extends PasswordTokenData>({
  mutation,
  title,
  submitLabel,
  again,
  done,
}: PasswordTokenPageProps<Data>) {
  const t = useT();
  const [state, run] = useTokenMutation(mutation);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      password:
        [...password].length < PASSWORD_MIN_LENGTH
          ? t('console.account.password.tooShort', { count: PASSWORD_MIN_LENGTH })
          : undefined,
      confirm: confirm !== password ? t('console.account.password.mismatch') : undefined,
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    void run({ password });
  }

  if (state.kind === 'done') {
    const [answer] = Object.values(state.data);
    return (
      <AccountFrame title={title}>
        <p role="status" className="success">
          {done.before(answer?.user.username ?? '')} <Link href="/admin/login">{done.link}</Link>
          {done.after}
        </p>
      </AccountFrame>
    );
  }
  if (state.kind === 'dead') {
    return (
      <AccountFrame title={title}>
        <TokenProblem code={state.code} again={again} />
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title={title}>
      {state.kind === 'failed' && <TokenProblem code={state.code} again={again} />}
      <form onSubmit={submit} noValidate>
        <Field
          label={t('console.account.password.new')}
          type="password"
          autoComplete="new-password"
          hint={t('console.account.password.hint', { count: PASSWORD_MIN_LENGTH })}
          value={password}
          error={errors.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Field
          label={t('console.account.password.confirm')}
          type="password"
          autoComplete="new-password"
          value={confirm}
          error={errors.confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={state.kind === 'sending'}>
            {submitLabel}
          </button>
        </div>
      </form>
    </AccountFrame>
  );
}
