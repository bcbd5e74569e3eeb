import { AccountFrame, TokenProblem } from './AccountFrame';
import { useTokenMutation } from './useTokenMutation';

/** Turns off every notification email of the emailed link's account. */
export const UNSUBSCRIBE_MUTATION = `mutation AccountUnsubscribe($input: TokenInput!) {
  unsubscribe(input: $input) {
    user { id notificationSettings { onReply onFeatured onModeration } }
  }
}`;

interface UnsubscribeData {
  unsubscribe: { user: { id: string } };
}

// How to get a link that works, for a link that does not.
const AGAIN = 'Turn notifications off in your profile where you comment instead.';

/**
 * `/account/unsubscribe#token=…`, linked from notification emails. A button rather than acting
 * on load: link scanners in mail systems open links, and must not unsubscribe anyone.
 */
export function UnsubscribePage() {
  const [state, run] = useTokenMutation<UnsubscribeData>(UNSUBSCRIBE_MUTATION);
  return (
    <AccountFrame title="Unsubscribe from notifications">
      {state.kind === 'done' ? (
        <p role="status" className="success">
          You are unsubscribed: we will send no more notification emails. You can turn them back on
          in your profile where you comment.
        </p>
      ) : state.kind === 'dead' ? (
        <TokenProblem code={state.code} again={AGAIN} />
      ) : (
        <>
          <p>
            Stop all notification emails (replies, featured comments, moderation decisions). Emails
            about your account, like password resets, still arrive.
          </p>
          {state.kind === 'failed' && <TokenProblem code={state.code} again={AGAIN} />}
          <button
            type="button"
            className="primary"
            disabled={state.kind === 'sending'}
            onClick={() => void run()}
          >
            Unsubscribe
          </button>
        </>
      )}
    </AccountFrame>
  );
}
