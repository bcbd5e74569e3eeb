import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from 'urql';
import { toTransportError } from '@parley/transport';
import { graphql } from '@parley/transport/graphql';
import { useErrorText } from '../../errorText';
import { Field } from '../../Field';
import { useT } from '../../i18n';

/** Asks the server to email a password-reset link (to `/account/reset-password#token=…`). */
export const REQUEST_PASSWORD_RESET_MUTATION = graphql(`
  mutation ConsoleRequestPasswordReset($input: RequestPasswordResetInput!) {
    requestPasswordReset(input: $input) { ok }
  }
`);

/**
 * The "forgot password" form. Its answer is the same whether or not the address has an account,
 * as the server's is: the form must not tell who has one.
 */
export function ForgotPassword({
  initialEmail,
  onClose,
}: {
  /** What the sign-in form's Email field held, so it need not be typed twice. */
  initialEmail: string;
  /** Back to signing in. */
  onClose: () => void;
}) {
  const [{ fetching }, request] = useMutation(REQUEST_PASSWORD_RESET_MUTATION);
  const [email, setEmail] = useState(initialEmail);
  const [invalid, setInvalid] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const t = useT();
  const errorText = useErrorText();

  // The panel replaces the button that opened it: focus moves to its heading so keyboard and
  // screen-reader users are not left on a control that no longer exists.
  useEffect(() => heading.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (fetching) return;
    if (email.trim() === '') {
      setInvalid(t('console.login.reset.enterEmail'));
      return;
    }
    setInvalid(undefined);
    setFailure(null);
    const result = await request({ input: { email: email.trim() } });
    if (result.error) setFailure(errorText(toTransportError(result.error).code));
    else setSent(true);
  }

  return (
    <section className="forgot" aria-labelledby="forgot-heading">
      <h2 id="forgot-heading" ref={heading} tabIndex={-1}>
        {t('console.login.reset.title')}
      </h2>
      {sent ? (
        <p role="status" className="success">
          {t('console.login.reset.sent')}
        </p>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field
            label={t('console.login.reset.email')}
            type="email"
            autoComplete="email"
            value={email}
            error={invalid}
            onChange={(event) => setEmail(event.target.value)}
          />
          {failure && <p role="alert">{failure}</p>}
          <div className="actions">
            <button type="submit" className="primary" disabled={fetching}>
              {t('console.login.reset.submit')}
            </button>
          </div>
        </form>
      )}
      <p>
        <button type="button" className="link" onClick={onClose}>
          {t('console.login.reset.back')}
        </button>
      </p>
    </section>
  );
}
