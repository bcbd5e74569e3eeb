import type { ExecutionResult } from 'graphql';
import { GraphQLError } from 'graphql';
import {
  SHARED_RESULTS_BEHIND_MAX,
  createSubscriptionSharing,
  noResults,
} from './shareSubscriptions';

/** A hand-fed stream of results that records whether it was returned (ended by its consumer). */
function source() {
  const pending: ((result: IteratorResult<ExecutionResult>) => void)[] = [];
  const queued: IteratorResult<ExecutionResult>[] = [];
  const state = { returned: false, nexts: 0 };
  const deliver = (result: IteratorResult<ExecutionResult>) => {
    const waiting = pending.shift();
    if (waiting) waiting(result);
    else queued.push(result);
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: () => {
      state.nexts++;
      const ready = queued.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => pending.push(resolve));
    },
    return: () => {
      state.returned = true;
      deliver({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return {
    iterator,
    state,
    emit: (n: number) => deliver({ value: { data: { n } }, done: false }),
    end: () => deliver({ value: undefined, done: true }),
  };
}

const take = async (results: unknown, count: number) => {
  const iterator = (results as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator]();
  const values: unknown[] = [];
  for (let i = 0; i < count; i++) values.push((await iterator.next()).value);
  return { values, iterator };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('shared subscription executions', () => {
  it('runs every subscriber’s own checks, then fans one execution out to all of a key', async () => {
    const sharing = createSubscriptionSharing();
    const first = source();
    const runs: boolean[] = [];
    const a = await sharing.subscribe('k', (checkOnly) => (runs.push(checkOnly), first.iterator));
    const b = await sharing.subscribe('k', (checkOnly) => (runs.push(checkOnly), noResults()));
    // The second ran its access checks only: no execution, no pub/sub listener of its own.
    expect(runs).toEqual([false, true]);
    expect(sharing.executions()).toBe(1);
    first.emit(1);
    first.emit(2);
    expect((await take(a, 2)).values).toEqual([{ data: { n: 1 } }, { data: { n: 2 } }]);
    expect((await take(b, 2)).values).toEqual([{ data: { n: 1 } }, { data: { n: 2 } }]);
  });

  it('keeps a refused subscriber’s error and an unkeyed subscriber’s results their own', async () => {
    const sharing = createSubscriptionSharing();
    const refusal = { errors: [new GraphQLError('Live updates are off for this story.')] };
    expect(await sharing.subscribe('k', () => refusal)).toBe(refusal);
    const own = source();
    expect(await sharing.subscribe(undefined, () => own.iterator)).toBe(own.iterator);
    expect(sharing.executions()).toBe(0);
    // Refused at the checks while another's execution of the key is live: refused still.
    await sharing.subscribe('k', () => source().iterator);
    expect(await sharing.subscribe('k', (checkOnly) => (checkOnly ? refusal : own.iterator))).toBe(
      refusal,
    );
  });

  it('ends the execution (its pub/sub listener) when the last follower leaves', async () => {
    const sharing = createSubscriptionSharing();
    const first = source();
    const a = (await sharing.subscribe('k', () => first.iterator)) as AsyncIterator<unknown>;
    const b = (await sharing.subscribe('k', () => noResults())) as AsyncIterator<unknown>;
    await a.return!();
    await tick();
    expect(first.state.returned).toBe(false);
    first.emit(1);
    expect((await b.next()).value).toEqual({ data: { n: 1 } });
    await b.return!();
    expect(first.state.returned).toBe(true);
    expect(sharing.executions()).toBe(0);
    // A newcomer of the same key starts a fresh execution.
    const again = source();
    await sharing.subscribe('k', () => again.iterator);
    expect(again.state.returned).toBe(false);
    expect(sharing.executions()).toBe(1);
  });

  it('starts a fresh execution when the live one ended while the checks ran', async () => {
    const sharing = createSubscriptionSharing();
    const first = source();
    const a = (await sharing.subscribe('k', () => first.iterator)) as AsyncIterator<unknown>;
    const second = source();
    const runs: boolean[] = [];
    const b = await sharing.subscribe('k', async (checkOnly) => {
      runs.push(checkOnly);
      // The last follower of the live execution leaves while this one is being checked.
      if (checkOnly) await a.return!();
      return checkOnly ? noResults() : second.iterator;
    });
    expect(runs).toEqual([true, false]);
    expect(first.state.returned).toBe(true);
    second.emit(7);
    expect((await take(b, 1)).values).toEqual([{ data: { n: 7 } }]);
  });

  it('drops a follower that falls too far behind with a coded error, not the others', async () => {
    const sharing = createSubscriptionSharing();
    const first = source();
    const dropped: string[] = [];
    const slow = (await sharing.subscribe(
      'k',
      () => first.iterator,
      () => dropped.push('slow'),
    )) as AsyncIterator<unknown>;
    const quick = (await sharing.subscribe(
      'k',
      () => noResults(),
      () => dropped.push('quick'),
    )) as AsyncIterator<unknown>;
    for (let n = 0; n <= SHARED_RESULTS_BEHIND_MAX; n++) {
      first.emit(n);
      expect((await quick.next()).value).toEqual({ data: { n } });
    }
    const seen: unknown[] = [];
    for (;;) {
      const { value, done } = await slow.next();
      if (done) break;
      seen.push(value);
    }
    expect(seen).toHaveLength(SHARED_RESULTS_BEHIND_MAX + 1);
    expect(seen.at(-1)).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED' } }] });
    // Its connection is closed too, so that its client comes back and catches up.
    expect(dropped).toEqual(['slow']);
    // The quick one still follows; the execution still runs for it.
    first.emit(999);
    expect((await quick.next()).value).toEqual({ data: { n: 999 } });
    expect(first.state.returned).toBe(false);
  });

  it('drops every follower when the execution fails, and forgets it', async () => {
    const sharing = createSubscriptionSharing();
    let fail: (error: Error) => void = () => {};
    const failing: AsyncIterableIterator<ExecutionResult> = {
      next: () => new Promise((_resolve, reject) => (fail = reject)),
      return: () => Promise.resolve({ value: undefined, done: true }),
      [Symbol.asyncIterator]: () => failing,
    };
    const dropped: number[] = [];
    await sharing.subscribe(
      'k',
      () => failing,
      () => dropped.push(1),
    );
    await sharing.subscribe(
      'k',
      () => noResults(),
      () => dropped.push(2),
    );
    fail(new Error('the pub/sub went away'));
    await tick();
    expect(dropped).toEqual([1, 2]);
    expect(sharing.executions()).toBe(0);
  });

  it('ends every follower when the execution ends, and forgets it', async () => {
    const sharing = createSubscriptionSharing();
    const first = source();
    const a = (await sharing.subscribe('k', () => first.iterator)) as AsyncIterator<unknown>;
    const b = (await sharing.subscribe('k', () => noResults())) as AsyncIterator<unknown>;
    first.emit(1);
    first.end();
    expect(await a.next()).toEqual({ value: { data: { n: 1 } }, done: false });
    expect(await a.next()).toEqual({ value: undefined, done: true });
    expect(await b.next()).toEqual({ value: { data: { n: 1 } }, done: false });
    expect(await b.next()).toEqual({ value: undefined, done: true });
    expect(sharing.executions()).toBe(0);
  });
});
