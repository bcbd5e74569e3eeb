import { AccountFrame, TokenProblem } from './AccountFrame';
import { useTokenMutation } from './useTokenMutation';

/** Marks the address of the emailed link's account as confirmed. */
export const CONFIRM_EMAIL_MUTATION = `mutation AccountConfirmEmail($input: TokenInput!) {
  confirmEmail(input: $input) { user { id email emailVerified } }
}`;

interface ConfirmData {
  confirmEmail: { user: { id: string; email: string | null; emailVerified: boolean | null } };
}

// How to get a link that works, for a link that does not.
const AGAIN = 'Change your email address again in your profile to get a new link.';

/**
 * `/account/confirm-email#token=…`. A button rather than confirming on load: mail scanners that
 * open links (and run their scripts) would otherwise use the single-use token first.
 */
export function ConfirmEmailPage() {
  const [state, run] = useTokenMutation<ConfirmData>(CONFIRM_EMAIL_MUTATION);
  return (
    <AccountFrame title="Confirm your email address">
      {state.kind === 'done' ? (
        <p role="status" className="success">
          Thank you: {state.data.confirmEmail.user.email ?? 'your address'} is confirmed.
        </p>
      ) : state.kind === 'dead' ? (
        <TokenProblem code={state.code} again={AGAIN} />
      ) : (
        <>
          <p>Confirm that this address belongs to you, so notifications and resets can reach it.</p>
          {state.kind === 'failed' && <TokenProblem code={state.code} again={AGAIN} />}
          <button
            type="button"
            className="primary"
            disabled={state.kind === 'sending'}
            onClick={() => void run()}
          >
            Confirm my email address
          </button>
        </>
      )}
    </AccountFrame>
  );
}
