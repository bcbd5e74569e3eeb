import { graphql } from '@parley/transport/graphql';
import { TokenActionPage } from './TokenActionPage';

/** Turns off every notification email of the emailed link's account. */
export const UNSUBSCRIBE_MUTATION = graphql(`
  mutation AccountUnsubscribe($input: TokenInput!) {
    unsubscribe(input: $input) {
      user { id notificationSettings { onReply onFeatured onModeration } }
    }
  }
`);

// How to get a link that works, for a link that does not.
const AGAIN = 'Turn notifications off in your profile where you comment instead.';

/**
 * `/account/unsubscribe#token=…`, linked from notification emails. A button rather than acting
 * on load: link scanners in mail systems open links, and must not unsubscribe anyone.
 */
export function UnsubscribePage() {
  return (
    <TokenActionPage
      title="Unsubscribe from notifications"
      mutation={UNSUBSCRIBE_MUTATION}
      again={AGAIN}
      intro={
        <p>
          Stop all notification emails (replies, featured comments, moderation decisions). Emails
          about your account, like password resets, still arrive.
        </p>
      }
      action="Unsubscribe"
      done={() => (
        <p role="status" className="success">
          You are unsubscribed: we will send no more notification emails. You can turn them back on
          in your profile where you comment.
        </p>
      )}
    />
  );
}
