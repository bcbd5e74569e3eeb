import { forwardRef } from 'react';
import { graphql } from '@parley/transport/graphql';
import type { ResultOf } from '@parley/transport/graphql';
import { formatWhen } from '../../formatWhen';
import { useT } from '../../i18n';
import { HeldReasonsFields, HeldReasons } from './HeldReasons';
import type { WordLists } from './HeldReasons';
import type { DecisionName, QueueName } from './queries';

/** What a card reads of its comment; the queue's query spreads it. */
export const ModerationCardFields = graphql(
  `
    fragment ModerationCardFields on Comment {
      id body status tags createdAt editedAt
      author { id username status }
      parent { id bodySource author { username } }
      story { id title url }
      ...HeldReasonsFields
    }
  `,
  [HeldReasonsFields],
);

/**
 * One card of a queue. `body` is sanitized HTML from the server: the only string rendered as
 * HTML.
 */
export type QueueComment = ResultOf<typeof ModerationCardFields>;

/** Props of {@link ModerationCard}. */
export interface ModerationCardProps {
  comment: QueueComment;
  queue: QueueName;
  words: WordLists;
  /** The keyboard selection (j/k). */
  selected: boolean;
  /** Left the queue by someone else's hand: shown, but nothing to decide. */
  gone: boolean;
  /** The coded error of a decision that failed, as text. */
  error: string | null;
  onDecide: (name: DecisionName) => void;
  onAuthor: () => void;
  onSelect: () => void;
}

const EXCERPT_CHARS = 140;

function excerpt(text: string | null): string {
  if (!text) return '';
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** One comment in a queue, with what a moderator needs to judge it and the three decisions. */
export const ModerationCard = forwardRef<HTMLElement, ModerationCardProps>(function ModerationCard(
  { comment, queue, words, selected, gone, error, onDecide, onAuthor, onSelect },
  ref,
) {
  const t = useT();
  const featured = comment.tags.includes('FEATURED');
  const deleted = t('console.moderate.deletedAccount');
  const headingId = `card-${comment.id}-by`;
  return (
    <article
      ref={ref}
      id={`card-${comment.id}`}
      className={`mod-card${selected ? ' selected' : ''}${gone ? ' gone' : ''}`}
      aria-labelledby={headingId}
      aria-current={selected ? 'true' : undefined}
      // Focusable by script (j/k), not a Tab stop: Tab walks the buttons inside.
      tabIndex={-1}
      onFocus={onSelect}
    >
      <header className="mod-card-head">
        <h3 id={headingId} className="mod-author">
          <span className="visually-hidden">{t('console.moderate.card.commentBy')} </span>
          {comment.author ? (
            <button type="button" className="link" onClick={onAuthor}>
              {comment.author.username}
            </button>
          ) : (
            deleted
          )}
        </h3>
        {comment.author?.status && comment.author.status !== 'ACTIVE' && (
          <span className="mod-badge">
            {t(`console.moderate.userStatus.${comment.author.status}`)}
          </span>
        )}
        <span className="mod-meta">
          {t('console.moderate.card.onStory.before')}{' '}
          <a href={comment.story.url} target="_blank" rel="noreferrer">
            {comment.story.title ?? comment.story.url}
          </a>{' '}
          · <time dateTime={comment.createdAt}>{formatWhen(comment.createdAt)}</time>
          {comment.editedAt && (
            <>
              {' '}
              ·{' '}
              <span
                title={t('console.moderate.card.editedAt', { when: formatWhen(comment.editedAt) })}
              >
                {t('console.moderate.card.edited')}
              </span>
            </>
          )}
          {featured && <> · {t('console.moderate.card.featured')}</>}
        </span>
      </header>
      {comment.parent && (
        <p className="mod-parent">
          {t('console.moderate.card.inReplyTo', {
            author: comment.parent.author?.username ?? deleted,
          })}{' '}
          <q>{excerpt(comment.parent.bodySource)}</q>
        </p>
      )}
      {/* Sanitized by the server (the same HTML readers get); nothing else is set as HTML. */}
      <div className="mod-body" dangerouslySetInnerHTML={{ __html: comment.body }} />
      <HeldReasons comment={comment} words={words} />
      {gone ? (
        <p className="mod-gone">{t('console.moderate.card.gone')}</p>
      ) : (
        <div className="mod-actions">
          <button
            type="button"
            className="approve"
            disabled={queue === 'APPROVED'}
            onClick={() => onDecide('approveComment')}
          >
            {t('console.moderate.card.approve')}
          </button>
          <button
            type="button"
            className="reject"
            disabled={queue === 'REJECTED'}
            onClick={() => onDecide('rejectComment')}
          >
            {t('console.moderate.card.reject')}
          </button>
          <button
            type="button"
            className="spam"
            title={t('console.moderate.card.spamHint')}
            onClick={() => onDecide('rejectSpam')}
          >
            {t('console.moderate.card.spam')}
          </button>
          <button
            type="button"
            onClick={() => onDecide(featured ? 'unfeatureComment' : 'featureComment')}
          >
            {featured ? t('console.moderate.card.unfeature') : t('console.moderate.card.feature')}
          </button>
        </div>
      )}
      {error && <p role="alert">{error}</p>}
    </article>
  );
});
