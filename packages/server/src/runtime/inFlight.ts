/**
 * The work a queue has started and a shutdown waits for (the mail queue's sends, the webhooks'
 * attempts): each promise is known while it runs, and `settled` waits for them all, or for at most
 * some time.
 */
export interface InFlight {
  /** Runs `work`, known while it runs; resolves or rejects as it does. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Waits for what runs now (and `more`), at most `ms`; resolves how many still run. */
  settled(ms: number, more?: Promise<unknown>): Promise<number>;
}

/** An empty {@link InFlight}. */
export function createInFlight(): InFlight {
  const running = new Set<Promise<unknown>>();
  return {
    track(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return work;
    },
    async settled(ms, more) {
      let wait: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        // What fails (the database away) must not fail the wait.
        Promise.all([...running, more?.catch(() => undefined)]),
        new Promise((resolve) => (wait = setTimeout(resolve, ms))),
      ]);
      clearTimeout(wait);
      return running.size;
    },
  };
}
