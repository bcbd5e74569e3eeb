import type { ReactNode } from 'react';
import type { TypedDocumentNode } from 'urql';
import { AccountFrame, TokenProblem } from './AccountFrame';
import { useTokenMutation } from './useTokenMutation';

/**
 * The body of an account page whose emailed link runs one action: an explanation and a button,
 * then the result. A button rather than acting on load: mail scanners that open links (and run
 * their scripts) would otherwise use the single-use token first.
 */
export function TokenActionPage<Data>({
  title,
  mutation,
  again,
  intro,
  action,
  done,
}: {
  /** The page's heading. */
  title: string;
  /** The mutation that takes the link's token as its whole input (`TokenInput`). */
  mutation: TypedDocumentNode<Data, { input: { token: string } }>;
  /** How to get a link that works, for a link that does not. */
  again: string;
  /** What the button will do, shown before it is pressed. */
  intro: ReactNode;
  /** The button's label. */
  action: string;
  /** What is shown once the mutation answers with data. */
  done: (data: Data) => ReactNode;
}) {
  const [state, run] = useTokenMutation(mutation);
  return (
    <AccountFrame title={title}>
      {state.kind === 'done' ? (
        done(state.data)
      ) : state.kind === 'dead' ? (
        <TokenProblem code={state.code} again={again} />
      ) : (
        <>
          {intro}
          {state.kind === 'failed' && <TokenProblem code={state.code} again={again} />}
          <button
            type="button"
            className="primary"
            disabled={state.kind === 'sending'}
            onClick={() => void run({})}
          >
            {action}
          </button>
        </>
      )}
    </AccountFrame>
  );
}
