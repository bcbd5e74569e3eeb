import { useQuery } from 'urql';
import { uiLocale } from '../../formatWhen';
import type { Translate } from '@parley/contract';
import { toTransportError } from '@parley/transport';
import type { ResultOf } from '@parley/transport/graphql';
import { Loading } from '../../Loading';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import type { ConsoleMessageKey } from '../../i18n';
import { MY_DECISIONS_COUNT } from './defaults';
import { MY_DECISIONS_QUERY } from './queries';

/** A decided comment's status (`CommentStatus`). */
type CommentStatus = ResultOf<typeof MY_DECISIONS_QUERY>['myDecisions'][number]['status'];

/** Why a comment was rejected (`RejectionReason`). */
type RejectionReason = NonNullable<
  ResultOf<typeof MY_DECISIONS_QUERY>['myDecisions'][number]['reason']
>;

/** What a decision was: "Approved", "Rejected as spam"; a reason without its text fails to compile. */
function decisionText(
  t: Translate<ConsoleMessageKey>,
  status: CommentStatus,
  reason: RejectionReason | null,
): string {
  if (status === 'REJECTED' && reason) return t(`console.moderate.decisions.rejectedAs.${reason}`);
  if (status === 'APPROVED' || status === 'REJECTED')
    return t(`console.moderate.decisions.${status}`);
  return t(`console.moderate.commentStatus.${status}`);
}

const EXCERPT_CHARS = 100;

/** "My recent decisions": the viewer's latest approvals and rejections, with links. */
export function DecisionHistory() {
  const t = useT();
  const errorText = useErrorText();
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
        <h2 id="mod-decisions-title">{t('console.moderate.decisions.title')}</h2>
        <button type="button" onClick={() => reexecute({ requestPolicy: 'network-only' })}>
          {t('console.moderate.decisions.refresh')}
        </button>
      </div>
      {data.myDecisions.length === 0 ? (
        <p>{t('console.moderate.decisions.none')}</p>
      ) : (
        <ol>
          {data.myDecisions.map((d) => {
            const source = d.comment?.bodySource ?? '';
            return (
              <li key={d.id}>
                <strong className={`status-${d.status.toLowerCase()}`}>
                  {decisionText(t, d.status, d.reason)}
                </strong>{' '}
                <time dateTime={d.createdAt}>
                  {new Date(d.createdAt).toLocaleString(uiLocale())}
                </time>
                {d.comment ? (
                  <>
                    {' — '}
                    {t('console.moderate.decisions.commentOn.before', {
                      author: d.comment.author?.username ?? t('console.moderate.deletedAccount'),
                    })}{' '}
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
                  ` — ${t('console.moderate.decisions.deleted')}`
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
