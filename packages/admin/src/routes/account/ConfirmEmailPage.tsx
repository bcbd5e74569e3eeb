import { graphql } from '@parley/transport/graphql';
import { TokenActionPage } from './TokenActionPage';

/** Marks the address of the emailed link's account as confirmed. */
export const CONFIRM_EMAIL_MUTATION = graphql(`
  mutation AccountConfirmEmail($input: TokenInput!) {
    confirmEmail(input: $input) { user { id email emailVerified } }
  }
`);

// How to get a link that works, for a link that does not.
const AGAIN = 'Change your email address again in your profile to get a new link.';

/**
 * `/account/confirm-email#token=…`. A button rather than confirming on load: mail scanners that
 * open links (and run their scripts) would otherwise use the single-use token first.
 */
export function ConfirmEmailPage() {
  return (
    <TokenActionPage
      title="Confirm your email address"
      mutation={CONFIRM_EMAIL_MUTATION}
      again={AGAIN}
      intro={
        <p>Confirm that this address belongs to you, so notifications and resets can reach it.</p>
      }
      action="Confirm my email address"
      done={(data) => (
        <p role="status" className="success">
          Thank you: {data.confirmEmail.user?.email ?? 'your address'} is confirmed.
        </p>
      )}
    />
  );
}
