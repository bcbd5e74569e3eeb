import { graphql } from '@parley/transport/graphql';
import { TransportError, toTransportError } from '@parley/transport';
import type { ErrorCode } from '@parley/transport';
import type { LocalComment } from './createThreadStore';
import { CommentFields } from './CommentView';
import type { StreamEnv } from './StreamContext';
import type { CommentData } from './CommentView';
import { draftKey } from './useDraft';

// A chunk of its own, loaded by useOutbox at idle after the first paint or on the first Post:
// reading a thread never needs it.

/** Posts a comment; `clientMutationId` makes a resend of the same post harmless. */
export const CREATE_COMMENT = graphql(
  `
    mutation CreateComment($input: CreateCommentInput!) {
      createComment(input: $input) {
        comment {
          ...CommentFields
        }
      }
    }
  `,
  [CommentFields],
);

/** Failures after which the same post may still succeed: the transport has already retried them. */
const RETRYABLE: readonly ErrorCode[] = ['NETWORK_ERROR', 'REQUEST_TIMEOUT'];

/** Storage key of the posts of one story not yet answered by the server. */
export const outboxKey = (storyId: string): string => `outbox:${storyId}`;

/** A post waiting for (or on its way to) the server, as kept in storage. */
export interface OutboxEntry {
  /** The clientMutationId: the same for every attempt. */
  key: string;
  /** Story of the comment. */
  storyId: string;
  /** Parent comment, or null. */
  parentId: string | null;
  /** The Markdown source. */
  body: string;
  /** When Post was pressed (ISO). */
  createdAt: string;
}

/** Hears a post refused for good (a coded error); returns true when it took the text back. */
export type RejectListener = (entry: OutboxEntry, error: TransportError) => boolean;

/** The posts of this page view, sent once each and kept in storage until the server answered. */
export interface Outbox {
  /** Shows the post at once, keeps it in storage, then sends it (unless offline). Resolves once stored. */
  post(entry: OutboxEntry): Promise<void>;
  /** Sends every stored post of the story not already on its way; runs one at a time. */
  flush(storyId: string): Promise<void>;
  /** Flushes the story now and whenever the connection returns; returns the stop function. */
  watch(storyId: string): () => void;
  /** Listens to refused posts; returns the unsubscribe function. */
  onReject(listener: RejectListener): () => void;
  /** The refusal no open box took (its text went to the draft), once, for the box opened later. */
  takeRefusal(storyId: string, parentId: string | null): TransportError | undefined;
}

/** What the outbox needs from the stream's environment. */
export type OutboxEnv = Pick<StreamEnv, 'transport' | 'thread' | 'bridge' | 'window'>;

/**
 * Creates the outbox. Every post is written to storage before it is sent (a tab closed mid-send
 * resends it on the next load) and removed only after the server's answer: success, or a coded
 * refusal whose text goes back to the box. "Never twice": a key is sent by one caller at a time
 * (`busy`), never again once answered (`settled`), and flushes run one after another, so a second
 * `online` event finds the list already emptied by the first.
 */
export function createOutbox(env: OutboxEnv): Outbox {
  const { transport, thread, bridge, window: win } = env;
  const { client, storage } = transport;
  const busy = new Set<string>();
  const settled = new Set<string>();
  const watched = new Map<string, number>();
  const listeners = new Set<RejectListener>();
  const refusals = new Map<string, TransportError>();
  let writes = Promise.resolve();
  let flushes = Promise.resolve();
  let stopWatching: (() => void) | undefined;

  const read = (storyId: string) =>
    storage.get<OutboxEntry[]>(outboxKey(storyId)).then(
      (list) => (Array.isArray(list) ? list : []),
      () => [],
    );
  // Read-modify-write, one at a time: two posts at once must not drop each other from the list.
  const update = (storyId: string, change: (list: OutboxEntry[]) => OutboxEntry[]) =>
    (writes = writes
      .then(async () => {
        const list = change(await read(storyId));
        const key = outboxKey(storyId);
        await (list.length ? storage.set(key, list) : storage.remove(key));
      })
      .catch(() => undefined));
  const show = (entry: OutboxEntry, state: LocalComment['state'], comment?: CommentData) =>
    thread.upsert({ ...entry, text: entry.body, state, comment });
  const offline = () => win.navigator.onLine === false;
  const queued = (entry: OutboxEntry) => {
    show(entry, 'queued');
    bridge.send('event', { name: 'commentQueued', data: { storyId: entry.storyId } });
  };

  /** Sends one entry (already marked busy); false when it stays queued. */
  async function deliver(entry: OutboxEntry): Promise<boolean> {
    const { key, storyId, parentId, body } = entry;
    show(entry, 'posting');
    const result = await client
      .mutation(
        CREATE_COMMENT,
        { input: { storyId, parentId, body, clientMutationId: key } },
        { clientMutationId: key },
      )
      .toPromise();
    const comment = result.data?.createComment?.comment;
    const error = comment
      ? undefined
      : result.error
        ? toTransportError(result.error)
        : new TransportError('BAD_RESPONSE', 'createComment answered without a comment');
    // `settled` is set before `busy` is cleared, in one step, so no flush sees the key free.
    if (!error || !RETRYABLE.includes(error.code)) settled.add(key);
    busy.delete(key);
    if (!settled.has(key)) return false;
    await update(storyId, (list) => list.filter((item) => item.key !== key));
    if (comment) {
      const held = comment.status === 'PREMOD' || comment.status === 'SYSTEM_WITHHELD';
      show(entry, held ? 'held' : 'posted', comment);
      bridge.send('event', {
        name: 'commentPosted',
        data: { commentId: comment.id, storyId, parentId, status: comment.status },
      });
    } else if (error) {
      thread.remove(key);
      let taken = false;
      for (const listener of listeners) taken = listener(entry, error) || taken;
      // No box of that story and parent is open (a closed reply box): the text waits in its
      // draft and the error with it, for when the box opens again.
      if (!taken) {
        const drafted = draftKey(storyId, parentId);
        refusals.set(drafted, error);
        const draft = await storage.get<string>(drafted).catch(() => '');
        await storage.set(drafted, draft ? `${body}\n\n${draft}` : body).catch(() => undefined);
      }
    }
    return true;
  }

  async function run(storyId: string) {
    let down = offline();
    for (const entry of await read(storyId)) {
      if (busy.has(entry.key) || settled.has(entry.key)) continue;
      if (down) {
        show(entry, 'queued');
        continue;
      }
      busy.add(entry.key);
      if (!(await deliver(entry))) {
        // Still unreachable: keep the rest for the next `online` rather than fail each in turn.
        down = true;
        show(entry, 'queued');
      }
    }
  }

  const outbox: Outbox = {
    post(entry) {
      busy.add(entry.key);
      show(entry, offline() ? 'queued' : 'posting');
      const stored = update(entry.storyId, (list) => [...list, entry]);
      void stored.then(async () => {
        if (offline()) {
          busy.delete(entry.key);
          queued(entry);
        } else if (!(await deliver(entry))) queued(entry);
      });
      return stored;
    },
    flush(storyId) {
      const next = () => run(storyId).catch(() => undefined);
      return (flushes = flushes.then(next));
    },
    watch(storyId) {
      watched.set(storyId, (watched.get(storyId) ?? 0) + 1);
      if (!stopWatching) {
        const flushAll = () => watched.forEach((_n, id) => void outbox.flush(id));
        const offStatus = transport.onStatusChange(
          (status) => status === 'connected' && flushAll(),
        );
        win.addEventListener('online', flushAll);
        stopWatching = () => {
          offStatus();
          win.removeEventListener('online', flushAll);
        };
      }
      void outbox.flush(storyId);
      return () => {
        const count = (watched.get(storyId) ?? 1) - 1;
        if (count > 0) watched.set(storyId, count);
        else watched.delete(storyId);
        if (watched.size === 0) {
          stopWatching?.();
          stopWatching = undefined;
        }
      };
    },
    onReject(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    takeRefusal(storyId, parentId) {
      const key = draftKey(storyId, parentId);
      const error = refusals.get(key);
      refusals.delete(key);
      return error;
    },
  };
  return outbox;
}

const outboxes = new WeakMap<OutboxEnv['thread'], Outbox>();

/** The page view's one outbox (keyed by its thread store), so every box shares the guards. */
export function outboxFor(env: OutboxEnv): Outbox {
  let outbox = outboxes.get(env.thread);
  if (!outbox) outboxes.set(env.thread, (outbox = createOutbox(env)));
  return outbox;
}
