import { useQuery } from 'urql';
import { toTransportError } from '@parley/transport';
import type { ResultOf } from '@parley/transport/graphql';
import { Loading } from '../../Loading';
import { errorText } from '../../errorText';
import { MY_DECISIONS_COUNT } from './defaults';
import { MY_DECISIONS_QUERY } from './queries';

/** A decided comment's status (`CommentStatus`). */
type CommentStatus = ResultOf<typeof MY_DECISIONS_QUERY>['myDecisions'][number]['status'];

const STATUS_TEXT: Partial<Record<CommentStatus, string>> = {
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
};

/** Why a comment was rejected (`RejectionReason`). */
type RejectionReason = NonNullable<
  ResultOf<typeof MY_DECISIONS_QUERY>['myDecisions'][number]['reason']
>;

const REASON_TEXT: Record<RejectionReason, string> = {
  SPAM: 'as spam',
  ABUSIVE: 'as abusive',
  OFF_TOPIC: 'as off topic',
  OTHER: 'for another reason',
};

const EXCERPT_CHARS = 100;

/** "My recent decisions": the viewer's latest approvals and rejections, with links. */
export function DecisionHistory() {
  const [{ data, error }, reexecute] = useQuery({
    query: MY_DECISIONS_QUERY,
    variables: { first: MY_DECISIONS_COUNT },
    requestPolicy: 'cache-and-network',
  });
  if (error && !data) return <p role="alert">{errorText(toTransportError(error).code)}</p>;
  if (!data) return <Loading />;
  return (
    <section className="mod-decisions" aria-labelledby="mod-decisions-title">
      <div className="mod-decisions-head">
        <h2 id="mod-decisions-title">My recent decisions</h2>
        <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
          Refresh
        </button>
      </div>
      {data.myDecisions.length === 0 ? (
        <p>You have not decided on any comment yet.</p>
      ) : (
        <ol>
          {data.myDecisions.map((d) => {
            const source = d.comment?.bodySource ?? '';
            return (
              <li key={d.id}>
                <strong className={`status-${d.status.toLowerCase()}`}>
                  {STATUS_TEXT[d.status] ?? d.status.toLowerCase()}
                  {d.reason && ` ${REASON_TEXT[d.reason]}`}
                </strong>{' '}
                <time dateTime={d.createdAt}>{new Date(d.createdAt).toLocaleString()}</time>
                {d.comment ? (
                  <>
                    {' — '}
                    {d.comment.author?.username ?? 'a deleted account'} on{' '}
                    <a href={d.comment.story.url} target="_blank" rel="noreferrer">
                      {d.comment.story.title ?? d.comment.story.url}
                    </a>
                    <q className="mod-excerpt">
                      {source.length > EXCERPT_CHARS
                        ? `${source.slice(0, EXCERPT_CHARS)}…`
                        : source}
                    </q>
                  </>
                ) : (
                  ' — the comment was deleted'
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
