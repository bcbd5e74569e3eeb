/**
 * Optimistic, undoable decisions. The card leaves the list at once; the mutation is sent only
 * when the undo window closes. We delay rather than send-then-revert because a revert is not
 * possible in this API: there is no mutation back to PREMOD or NONE (a pending comment approved
 * by mistake could only be rejected, which is a different judgement), and a sent approval
 * already published the comment to readers, emailed notifications and counted in the decision
 * history. Leaving the page sends what is still waiting, so no decision is lost.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import type { Client } from 'urql';
import { toTransportError } from '@parley/transport';
import type { ErrorCode } from '@parley/transport';
import { useConsoleEnv } from '../../ConsoleContext';
import { useErrorText } from '../../errorText';
import { useT } from '../../i18n';
import { UNDO_WINDOW_MS } from './defaults';
import type { QueueComment } from './ModerationCard';
import { DECISION_MUTATIONS } from './queries';
import type { DecisionName, QueueName } from './queries';
import type { QueueAction } from './queueReducer';

/** A decision in its undo window. */
export interface PendingDecision {
  commentId: string;
  name: DecisionName;
  /** What the toast says, e.g. "Approved ada's comment". */
  label: string;
}

/** What the decision does to the list: leave it, or stay with changed tags. */
export function leavesQueue(queue: QueueName, name: DecisionName): boolean {
  if (name === 'approveComment') return queue !== 'APPROVED';
  if (name === 'rejectComment' || name === 'rejectSpam') return queue !== 'REJECTED';
  // Unfeaturing only drops the tag: the status stays, and so does the card.
  if (name === 'unfeatureComment') return false;
  // Featuring approves: the card leaves every queue but Approved, where it stays, tagged.
  return queue !== 'APPROVED';
}

interface Waiting extends PendingDecision {
  timer: number;
  leaves: boolean;
  tags: QueueComment['tags'];
}

/** Sends a decision; resolves the code of its failure, or null once the server took it. */
async function sendDecision(
  client: Client,
  { name, commentId }: PendingDecision,
): Promise<ErrorCode | null> {
  const { error } = await client.mutation(DECISION_MUTATIONS[name], { commentId }).toPromise();
  return error ? toTransportError(error).code : null;
}

/** Options of {@link useUndoableDecision}. */
export interface UndoableDecisionOptions {
  queue: QueueName;
  dispatch: (action: QueueAction) => void;
  /** The undo window, in ms. @default UNDO_WINDOW_MS */
  windowMs?: number;
}

/** Decide, undo, the latest pending decision (for the toast) and the errors per card. */
export function useUndoableDecision({
  queue,
  dispatch,
  windowMs = UNDO_WINDOW_MS,
}: UndoableDecisionOptions) {
  const client = useClient();
  const { window, notices } = useConsoleEnv();
  const t = useT();
  const errorText = useErrorText();
  // The latest words for the notices said after the page is left (without re-running its effect).
  const words = useRef({ t, errorText });
  words.current = { t, errorText };
  const waiting = useRef(new Map<string, Waiting>());
  const [latest, setLatest] = useState<PendingDecision | null>(null);
  // Codes, not their text: the text follows the console's language.
  const [errors, setErrors] = useState<Record<string, ErrorCode>>({});

  const refreshLatest = useCallback(() => {
    const all = [...waiting.current.values()];
    const last = all.at(-1);
    setLatest(last ? { commentId: last.commentId, name: last.name, label: last.label } : null);
  }, []);

  const send = useCallback(
    async (entry: Waiting) => {
      waiting.current.delete(entry.commentId);
      const failure = await sendDecision(client, entry);
      if (failure !== null) {
        // The card comes back where it was, with the coded error on it.
        if (entry.leaves) dispatch({ type: 'restore', id: entry.commentId });
        else dispatch({ type: 'update', id: entry.commentId, patch: { tags: entry.tags } });
        setErrors((e) => ({ ...e, [entry.commentId]: failure }));
      } else if (entry.leaves) {
        dispatch({ type: 'decided', id: entry.commentId });
      }
    },
    [client, dispatch],
  );

  const decide = useCallback(
    (comment: QueueComment, name: DecisionName) => {
      if (waiting.current.has(comment.id)) return;
      const leaves = leavesQueue(queue, name);
      setErrors(({ [comment.id]: _cleared, ...rest }) => rest);
      if (leaves) dispatch({ type: 'hide', id: comment.id });
      else {
        const tags: QueueComment['tags'] =
          name === 'featureComment'
            ? [...comment.tags, 'FEATURED']
            : comment.tags.filter((t) => t !== 'FEATURED');
        dispatch({ type: 'update', id: comment.id, patch: { tags } });
      }
      const entry: Waiting = {
        commentId: comment.id,
        name,
        label: t(`console.moderate.decided.${name}`, {
          author: comment.author?.username ?? t('console.moderate.deletedAccount'),
        }),
        leaves,
        tags: comment.tags,
        timer: window.setTimeout(() => {
          void send(entry).then(refreshLatest);
          refreshLatest();
        }, windowMs),
      };
      waiting.current.set(comment.id, entry);
      refreshLatest();
    },
    [dispatch, queue, refreshLatest, send, t, window, windowMs],
  );

  /** Cancels the latest pending decision: nothing is sent, the card returns. */
  const undo = useCallback(() => {
    const entry = [...waiting.current.values()].at(-1);
    if (!entry) return null;
    window.clearTimeout(entry.timer);
    waiting.current.delete(entry.commentId);
    if (entry.leaves) dispatch({ type: 'restore', id: entry.commentId });
    else dispatch({ type: 'update', id: entry.commentId, patch: { tags: entry.tags } });
    refreshLatest();
    return entry.commentId;
  }, [dispatch, refreshLatest, window]);

  // Closing or reloading the tab inside the undo window would drop the waiting decisions: the
  // browser asks first (no request can be trusted to finish while the page unloads).
  useEffect(() => {
    const guard = (event: BeforeUnloadEvent) => {
      if (waiting.current.size > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [window]);

  // Leaving the queue (another queue, another page) sends what is waiting at once. A refusal is
  // said in the console's notices: the card that would have shown it is gone with the page.
  useEffect(() => {
    const pending = waiting.current;
    return () => {
      for (const entry of pending.values()) {
        window.clearTimeout(entry.timer);
        void sendDecision(client, entry).then((failure) => {
          if (failure !== null)
            notices.add(
              words.current.t('console.moderate.decided.notSaved', {
                decision: entry.label,
                error: words.current.errorText(failure),
              }),
            );
        });
      }
      pending.clear();
    };
  }, [client, window, notices]);

  return {
    decide,
    undo,
    latest,
    errors: Object.fromEntries(
      Object.entries(errors).map(([id, code]) => [id, errorText(code)]),
    ) as Record<string, string>,
  };
}
