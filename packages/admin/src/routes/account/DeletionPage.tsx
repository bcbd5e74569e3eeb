import { useMemo, useState } from 'react';
import { uiLocale } from '../../formatWhen';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { signInWithDevice } from '@parley/transport/sign-in';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { Loading } from '../../Loading';
import { Field } from '../../Field';
import { errorCodeOf } from '../../errorCodeOf';
import { AccountFrame } from './AccountFrame';

/** Signs in for this page only (the token never becomes the console's session). */
export const ACCOUNT_SIGN_IN_MUTATION = graphql(
  `mutation AccountSignIn($input: SignInInput!) { signIn(input: $input) { token deviceToken } }`,
);
/** The signed-in user's deletion request, if any. */
export const ACCOUNT_DELETION_QUERY = graphql(
  `query AccountDeletion { viewer { id username deletionRequestedAt } }`,
);
/** Withdraws the deletion request. */
export const CANCEL_DELETION_MUTATION = graphql(
  `mutation AccountCancelDeletion { cancelAccountDeletion { user { id deletionRequestedAt } } }`,
);

// The server's ACCOUNT_DELETION_GRACE_SECONDS (account/accountEmails.ts): 7 days.
const DELETION_GRACE_MS = 7 * 24 * 3_600_000;

/**
 * `/account`, where the "your account will be deleted" email sends people: sign in, then cancel
 * the deletion. That email carries no token (the server asks for the password), so this page
 * signs in itself. A commenter's token is kept in this page's state only: stored as the console's
 * session it would greet them in the console with "not a moderator" next time.
 */
export function DeletionPage() {
  const t = useT();
  const [token, setToken] = useState<string | null>(null);
  return (
    <AccountFrame title={t('console.account.deletion.title')}>
      {token === null ? <SignInForm onSignedIn={setToken} /> : <DeletionStatus token={token} />}
    </AccountFrame>
  );
}

function SignInForm({ onSignedIn }: { onSignedIn: (token: string) => void }) {
  const t = useT();
  const errorText = useErrorText();
  const [, signIn] = useMutation(ACCOUNT_SIGN_IN_MUTATION);
  const [fetching, setFetching] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (fetching) return;
    if (email.trim() === '' || password === '') {
      setFailure(t('console.account.deletion.signIn.missing'));
      return;
    }
    setFailure(null);
    setFetching(true);
    // As on the console's sign-in page: a remembered device, else a challenge if one is asked.
    const result = await signInWithDevice({ email, password }, (input) => signIn({ input }));
    setFetching(false);
    if (result.data) onSignedIn(result.data.signIn.token);
    else setFailure(errorText(errorCodeOf(result.error)));
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <p>{t('console.account.deletion.signIn.intro')}</p>
      <Field
        label={t('console.account.deletion.signIn.email')}
        type="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Field
        label={t('console.account.deletion.signIn.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {failure && <p role="alert">{failure}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={fetching}>
          {t('console.account.deletion.signIn.submit')}
        </button>
      </div>
      <p className="hint">{t('console.account.deletion.signIn.hint')}</p>
    </form>
  );
}

function DeletionStatus({ token }: { token: string }) {
  const t = useT();
  const errorText = useErrorText();
  // The page's own token goes with each request (see DeletionPage for why not the session).
  const context = useMemo(
    () => ({ fetchOptions: { headers: { authorization: `Bearer ${token}` } } }),
    [token],
  );
  const [{ data, error }] = useQuery({
    query: ACCOUNT_DELETION_QUERY,
    requestPolicy: 'network-only',
    context,
  });
  const [{ fetching }, cancel] = useMutation(CANCEL_DELETION_MUTATION);
  const [cancelled, setCancelled] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  if (error && !data) return <p role="alert">{errorText(toTransportError(error).code)}</p>;
  if (!data) return <Loading />;
  const viewer = data.viewer;
  if (viewer === null) return <p role="alert">{errorText('UNAUTHENTICATED')}</p>;
  if (cancelled) {
    return (
      <p role="status" className="success">
        {t('console.account.deletion.cancelled', { username: viewer.username })}
      </p>
    );
  }
  if (viewer.deletionRequestedAt === null) {
    return (
      <p role="status">
        {t('console.account.deletion.notScheduled', { username: viewer.username })}
      </p>
    );
  }
  const deleteAt = new Date(new Date(viewer.deletionRequestedAt).getTime() + DELETION_GRACE_MS);

  async function cancelDeletion() {
    setFailure(null);
    const result = await cancel({}, context);
    if (result.error) setFailure(errorText(toTransportError(result.error).code));
    else setCancelled(true);
  }

  return (
    <>
      <p>
        {t('console.account.deletion.scheduled.before', { username: viewer.username })}{' '}
        <time dateTime={deleteAt.toISOString()}>
          {deleteAt.toLocaleString(uiLocale(), { dateStyle: 'long', timeStyle: 'short' })}
        </time>
        {t('console.account.deletion.scheduled.after')}
      </p>
      {failure && <p role="alert">{failure}</p>}
      <button
        type="button"
        className="primary"
        disabled={fetching}
        onClick={() => void cancelDeletion()}
      >
        {t('console.account.deletion.cancel')}
      </button>
    </>
  );
}
