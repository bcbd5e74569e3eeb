import { testDialects, useTestDatabase } from '../testDatabases';
import { releaseJobLease, takeJobLease } from './jobLeases';

const TTL = 60_000;
const at = (ms: number) => new Date(Date.UTC(2026, 10, 26) + ms);

describe.each(testDialects())('job leases on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  const take = (holder: string, ms: number) =>
    takeJobLease(t.db, { name: 'sweep', holder, now: at(ms), ttlMs: TTL });

  it('gives a job to one process until its lease runs out or is given up', async () => {
    expect(await take('a', 0)).toBe(true);
    expect(await take('b', 1_000)).toBe(false);
    // The holder renews; the lease then runs from the renewal.
    expect(await take('a', 50_000)).toBe(true);
    expect(await take('b', TTL + 1_000)).toBe(false);
    // Not renewed (the holder crashed): another takes it once it has run out.
    expect(await take('b', 50_000 + TTL)).toBe(true);
    expect(await take('a', 50_000 + TTL + 1)).toBe(false);
    // Given up (the holder stopped cleanly): taken at once.
    await releaseJobLease(t.db, 'sweep', 'a'); // not the holder: nothing happens
    expect(await take('a', 50_000 + TTL + 2)).toBe(false);
    await releaseJobLease(t.db, 'sweep', 'b');
    expect(await take('a', 50_000 + TTL + 3)).toBe(true);
  });

  it('gives it to exactly one of several processes asking at once', async () => {
    const holders = ['a', 'b', 'c', 'd', 'e', 'f'];
    const taken = await Promise.all(holders.map((holder) => take(holder, 0)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });
});
