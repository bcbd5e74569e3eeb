import type { ExecutionResult } from 'graphql';
import { GraphQLError } from 'graphql';
import type { ServerErrorCode } from '@parley/contract';

/**
 * Results a subscriber may fall behind by before it is dropped: it gets a `RATE_LIMITED` error,
 * its subscription ends and its connection is closed (`drop`), so that the client reconnects,
 * subscribes again and asks for what it missed. A socket that stopped reading must not make the
 * server hold every later comment for it.
 */
export const SHARED_RESULTS_BEHIND_MAX = 100;

/** What `subscribe` gives back for one subscriber: its results, or the error that refused it. */
type Subscribed = ExecutionResult | AsyncIterable<ExecutionResult>;

/**
 * Set on the root value of a subscriber about to join a live shared execution: its resolver
 * runs its access checks and returns {@link noResults} instead of following the pub/sub. (A
 * pub/sub stream returned before it was first read would stay pending, and with it the
 * subscriber's whole execution: ~10 KB per reader.)
 */
export const ACCESS_CHECK_ONLY = 'parleyAccessCheckOnly';

/** Whether a subscription resolver's root value asks for its access checks only. */
export function accessCheckOnly(root: unknown): boolean {
  return typeof root === 'object' && root !== null && ACCESS_CHECK_ONLY in root;
}

/** The results of an access check that passed: none, at once. */
export async function* noResults(): AsyncGenerator<never> {}

/**
 * One execution of a subscription, its results fanned out to every subscriber of the same
 * operation, variables and viewer class: with 10,000 anonymous readers of one story, a new
 * comment is loaded, resolved and masked once, not 10,000 times.
 */
export interface SubscriptionSharing {
  /**
   * Runs this subscriber's execution, `run(false)`, or — when `key` is set and an execution with
   * that key is live — only its access checks, `run(true)` (a refused subscriber gets its own
   * error), then has it follow the live one's results from now on. A keyed execution that
   * starts becomes the shared one. Without a key, `run(false)`'s results are the subscriber's.
   */
  subscribe(
    key: string | undefined,
    run: (accessCheckOnly: boolean) => Promise<Subscribed> | Subscribed,
    drop?: () => void,
  ): Promise<Subscribed>;
  /** Live shared executions (for tests and the metric). */
  executions(): number;
}

/** Creates an empty registry of shared subscription executions. */
export function createSubscriptionSharing(): SubscriptionSharing {
  const live = new Map<string, SharedExecution>();
  return {
    async subscribe(key, run, drop = () => undefined) {
      if (key === undefined) return run(false);
      if (live.has(key)) {
        const checked = await run(true);
        if (!isAsyncIterable(checked)) return checked;
        void checked[Symbol.asyncIterator]()
          .return?.()
          .catch(() => undefined);
        // Still live after the checks' await? Else this subscriber starts its own, below.
        const existing = live.get(key);
        if (existing !== undefined) return existing.join(drop);
      }
      const own = await run(false);
      if (!isAsyncIterable(own)) return own;
      // Another subscriber of the key started one meanwhile: this one keeps its own.
      if (live.has(key)) return own;
      const shared = new SharedExecution(own, () => live.delete(key));
      live.set(key, shared);
      return shared.join(drop);
    },
    executions: () => live.size,
  };
}

/** An execution pumped once while anyone follows it; ended when its last follower leaves. */
class SharedExecution {
  private readonly followers = new Set<Follower>();
  private readonly source: AsyncIterator<ExecutionResult>;
  private ended = false;

  constructor(
    results: AsyncIterable<ExecutionResult>,
    private readonly forget: () => void,
  ) {
    this.source = results[Symbol.asyncIterator]();
    void this.pump();
  }

  join(drop: () => void): AsyncIterableIterator<ExecutionResult> {
    const follower = new Follower(() => this.leave(follower), drop);
    this.followers.add(follower);
    return follower;
  }

  private leave(follower: Follower): void {
    this.followers.delete(follower);
    if (this.followers.size > 0 || this.ended) return;
    this.end();
    // Unsubscribes from the pub/sub, and resolves the pending `next()` of the pump as done.
    void this.source.return?.().catch(() => undefined);
  }

  private end(): void {
    this.ended = true;
    this.forget();
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await this.source.next();
        if (done) {
          // Forgotten at once: a subscriber arriving before `finally` runs starts a new one.
          this.end();
          break;
        }
        for (const follower of this.followers) follower.push(value);
      }
    } catch {
      // The execution itself failed (its pub/sub went away): every follower is dropped, so that
      // each client reconnects, subscribes again and asks for what it missed.
      if (!this.ended) this.end();
      for (const follower of this.followers) follower.drop();
    } finally {
      if (!this.ended) this.end();
      for (const follower of this.followers) follower.finish();
    }
  }
}

/** One subscriber's view of a shared execution: the results it has not taken yet. */
class Follower implements AsyncIterableIterator<ExecutionResult> {
  private readonly queue: ExecutionResult[] = [];
  private waiting: ((result: IteratorResult<ExecutionResult>) => void) | undefined;
  private finished = false;

  constructor(
    private readonly leave: () => void,
    /** Closes the subscriber's connection (see SHARED_RESULTS_BEHIND_MAX). */
    readonly drop: () => void,
  ) {}

  push(value: ExecutionResult): void {
    if (this.finished) return;
    if (this.waiting !== undefined) {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting({ value, done: false });
      return;
    }
    if (this.queue.length < SHARED_RESULTS_BEHIND_MAX) {
      this.queue.push(value);
      return;
    }
    this.queue.push(TOO_SLOW);
    this.finish();
    this.leave();
    this.drop();
  }

  finish(): void {
    this.finished = true;
    if (this.waiting !== undefined && this.queue.length === 0) {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.queue.length = 0;
    if (!this.finished) {
      this.finish();
      this.leave();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }
}

const TOO_SLOW: ExecutionResult = {
  errors: [
    new GraphQLError(
      `This connection fell ${SHARED_RESULTS_BEHIND_MAX} updates behind; subscribe again.`,
      { extensions: { code: 'RATE_LIMITED' satisfies ServerErrorCode } },
    ),
  ],
};

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
