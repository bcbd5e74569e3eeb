import { useCallback, useEffect, useRef, useState } from 'react';
import { Loading } from '../../Loading';
import { useT } from '../../i18n';
import { ModerationCard } from './ModerationCard';
import type { WordLists } from './HeldReasons';
import type { QueueComment } from './ModerationCard';
import type { DecisionName } from './queries';
import { BanDialog, ShortcutsDialog } from './QueueDialogs';
import { visibleCards } from './queueReducer';
import { useQueueData } from './useQueueData';
import type { QueueFilter } from './useQueueData';
import { useQueueKeyboard } from './useQueueKeyboard';
import { useUndoableDecision } from './useUndoableDecision';

/** Props of {@link QueueList}. */
export interface QueueListProps {
  filter: QueueFilter;
  words: WordLists;
  /** Increments at each live queue event: the list fetches its first page again. */
  liveTick: number;
  /** Opens the user drawer. */
  onOpenUser: (userId: string) => void;
  /** The undo window, in ms. */
  undoWindowMs: number;
}

/** One queue's cards with the keyboard, optimistic decisions, undo and live arrivals. */
export function QueueList({ filter, words, liveTick, onOpenUser, undoWindowMs }: QueueListProps) {
  const t = useT();
  const { state, dispatch, loadError, loadMore, moreError } = useQueueData(filter, liveTick);
  const { decide, undo, latest, errors } = useUndoableDecision({
    queue: filter.queue,
    dispatch,
    windowMs: undoWindowMs,
  });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [single, setSingle] = useState(false);
  const [help, setHelp] = useState(false);
  const [banning, setBanning] = useState<QueueComment['author']>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const cardRefs = useRef(new Map<string, HTMLElement>());
  const cards = visibleCards(state);
  const selected = cards.find((c) => c.id === selectedId) ?? cards[0] ?? null;
  const index = selected ? cards.indexOf(selected) : -1;

  const focusCard = useCallback((id: string) => {
    const node = cardRefs.current.get(id);
    if (!node) return;
    node.focus({ preventScroll: true });
    // jsdom has no scrollIntoView; browsers do.
    node.scrollIntoView?.({ block: 'nearest' });
  }, []);

  const move = (by: number) => {
    const next = cards[Math.min(Math.max(index + by, 0), cards.length - 1)];
    if (!next) return;
    setSelectedId(next.id);
    focusCard(next.id);
  };

  const onDecide = (comment: QueueComment, name: DecisionName) => {
    if (state.gone.includes(comment.id)) return;
    // The selection moves to the next card before this one leaves, so j/k keep their place.
    const at = cards.indexOf(comment);
    const after = cards[at + 1] ?? cards[at - 1] ?? null;
    if (comment.id === selected?.id) setSelectedId(after?.id ?? null);
    decide(comment, name);
  };

  // "N new" disappears when pressed: its focus goes to the first new card, not to the page.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current === null) return;
    focusCard(focusNext.current);
    focusNext.current = null;
  });

  // After a decision the next card takes the focus, so the keyboard flow continues.
  const lastLatest = useRef(latest);
  useEffect(() => {
    if (latest && latest !== lastLatest.current && selected) focusCard(selected.id);
    lastLatest.current = latest;
  }, [latest, selected, focusCard]);

  useQueueKeyboard({
    next: () => move(1),
    previous: () => move(-1),
    approve: () => selected && onDecide(selected, 'approveComment'),
    reject: () => selected && onDecide(selected, 'rejectComment'),
    spam: () => selected && onDecide(selected, 'rejectSpam'),
    feature: () =>
      selected &&
      onDecide(
        selected,
        selected.tags.includes('FEATURED') ? 'unfeatureComment' : 'featureComment',
      ),
    ban: () => selected?.author && setBanning(selected.author),
    undo: () => {
      const id = undo();
      if (id) setSelectedId(id);
    },
    single: () => setSingle((s) => !s),
    help: () => setHelp(true),
  });

  if (loadError) return <p role="alert">{loadError}</p>;
  if (state.shown === null) return <Loading />;

  const shownCards = single && selected ? [selected] : cards;
  return (
    <div className={`mod-queue${single ? ' single' : ''}`}>
      <div className="mod-queue-bar">
        {state.arrivals.length > 0 && (
          <button
            type="button"
            className="mod-new"
            onClick={() => {
              const first = state.arrivals[0];
              if (first) {
                setSelectedId(first.id);
                focusNext.current = first.id;
              }
              dispatch({ type: 'showArrivals', order: filter.order });
            }}
          >
            {t('console.moderate.list.arrivals', { count: state.arrivals.length })}
          </button>
        )}
        <button type="button" className="link" onClick={() => setHelp(true)}>
          {t('console.moderate.list.shortcuts')}
        </button>
        {single && (
          <button type="button" onClick={() => setSingle(false)}>
            {t('console.moderate.list.showAll')}
          </button>
        )}
      </div>
      {cards.length === 0 ? (
        <p className="mod-empty">{t('console.moderate.list.empty')}</p>
      ) : (
        <ol className="mod-cards" aria-label={t('console.moderate.list.cards')}>
          {shownCards.map((comment) => (
            <li key={comment.id}>
              <ModerationCard
                ref={(node: HTMLElement | null) => {
                  if (node) cardRefs.current.set(comment.id, node);
                  else cardRefs.current.delete(comment.id);
                }}
                comment={comment}
                queue={filter.queue}
                words={words}
                selected={comment.id === selected?.id}
                gone={state.gone.includes(comment.id)}
                error={errors[comment.id] ?? null}
                onDecide={(name) => onDecide(comment, name)}
                onAuthor={() => comment.author && onOpenUser(comment.author.id)}
                onSelect={() => setSelectedId(comment.id)}
              />
            </li>
          ))}
        </ol>
      )}
      {state.pageInfo.hasNextPage && !single && (
        <button type="button" onClick={() => void loadMore()}>
          {t('console.moderate.list.loadMore')}
        </button>
      )}
      {moreError && <p role="alert">{moreError}</p>}
      <div className="mod-toast" role="status">
        {latest && (
          <>
            {t('console.moderate.list.pending', { decision: latest.label })}{' '}
            <button type="button" onClick={() => undo()}>
              {t('console.moderate.list.undo')}
            </button>
          </>
        )}
        {!latest && notice}
      </div>
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
      {banning && (
        <BanDialog
          user={banning}
          onClose={(banned) => {
            if (banned)
              setNotice(t('console.moderate.list.banned', { username: banning.username }));
            setBanning(null);
          }}
        />
      )}
    </div>
  );
}
