import { graphql } from '@parley/transport/graphql';
import { useEffect, useState } from 'preact/hooks';
import { answeringChallenges, rememberDevice } from '@parley/transport/sign-in';
import { AuthFieldsForm } from './AuthFieldsForm';
import type { AuthFormProps } from './PopupEnv';
import { openChannel } from './signUpLink';
import type { SignUpMessage } from './signUpLink';
import { codeProblem, emailProblem, newPasswordProblem, usernameProblem } from './validateAccount';

/** The first step of a sign-up: the server emails a code (the same answer for every address). */
export const SIGN_UP = graphql(`
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      email
    }
  }
`);

/** The second step: the emailed code creates the account, its email confirmed, and signs it in. */
export const CONFIRM_SIGN_UP = graphql(`
  mutation ConfirmSignUp($input: ConfirmSignUpInput!) {
    confirmSignUp(input: $input) {
      token
      deviceToken
    }
  }
`);

/**
 * The Sign up form: Email, Username, Password; then the code emailed to the address, and the
 * username again (to change if the email says it is taken). Nobody learns from the first step
 * whether an address has an account or a username is taken: the address's owner is told by email.
 */
export function SignUpForm({ env, onToken }: AuthFormProps) {
  const { t, client } = env;
  // After the first step: where the code went, and the username asked for.
  const [sent, setSent] = useState<{ email: string; username: string } | null>(null);
  // Or the email's link, opened in this browser, finishes it: its page hands the session here.
  useEffect(() => {
    const channel = sent === null ? null : openChannel(env.window);
    if (channel === null || sent === null) return;
    channel.onmessage = (event: MessageEvent<SignUpMessage>) => {
      const message = event.data;
      if (message?.type !== 'signedUp' || message.email !== sent.email) return;
      channel.postMessage({ type: 'taken', email: sent.email } satisfies SignUpMessage);
      rememberDevice(sent.email, message.deviceToken);
      onToken(message.token);
    };
    return () => channel.close();
  }, [sent]);
  if (sent !== null) {
    return (
      <>
        <p class="parley-notice" role="status">
          {t('auth.signUp.sent', { email: sent.email })}
        </p>
        <AuthFieldsForm
          env={env}
          submitLabel={t('auth.submit.confirm')}
          fields={{
            code: {
              label: t('auth.code'),
              type: 'text',
              autoComplete: 'one-time-code',
              rule: codeProblem,
            },
            // Whether it is taken is said only here (and in the email), to the address's owner.
            username: {
              label: t('auth.username'),
              type: 'text',
              autoComplete: 'username',
              rule: usernameProblem,
            },
          }}
          initial={{ username: sent.username }}
          request={({ code, username }) =>
            client
              .mutation(CONFIRM_SIGN_UP, {
                input: { email: sent.email, code: code.trim(), username: username.trim() },
              })
              .toPromise()
          }
          onData={(data) => {
            rememberDevice(sent.email, data.confirmSignUp.deviceToken);
            onToken(data.confirmSignUp.token);
          }}
        />
        {/* A mistyped address, or a code that never came. */}
        <button type="button" class="parley-link" onClick={() => setSent(null)}>
          {t('auth.signUp.restart')}
        </button>
      </>
    );
  }
  return (
    <AuthFieldsForm
      env={env}
      submitLabel={t('auth.signUp')}
      fields={{
        email: { label: t('auth.email'), type: 'email', autoComplete: 'email', rule: emailProblem },
        username: {
          label: t('auth.username'),
          type: 'text',
          autoComplete: 'username',
          rule: usernameProblem,
        },
        password: {
          label: t('auth.password'),
          type: 'password',
          autoComplete: 'new-password',
          rule: newPasswordProblem,
        },
      }}
      trap
      request={({ email, username, password }, website) =>
        // The proof of work every sign-up pays (auth/botCheck.ts), solved here unseen.
        answeringChallenges((answer) =>
          client
            .mutation(SIGN_UP, {
              // The password goes as typed: spaces are legitimate in a passphrase.
              input: {
                email: email.trim(),
                username: username.trim(),
                password,
                locale: env.locale,
                website,
                ...answer,
              },
            })
            .toPromise(),
        )
      }
      onData={(data, { username }) =>
        setSent({ email: data.signUp.email, username: username.trim() })
      }
    />
  );
}
