import { countRows, seedBasics } from '../db/testFixtures';
import { useTestDatabase } from '../db/testDatabases';
import { ParentsFirst, inBatch, newReport, parseTime, usernameBase } from './importShared';
import type { Threaded } from './importShared';

describe('ParentsFirst', () => {
  async function order(steps: (o: ParentsFirst<Threaded>) => Promise<void>) {
    const placed: string[] = [];
    const moved: string[] = [];
    const o = new ParentsFirst<Threaded>(
      async (comment) => void placed.push(`${comment.id}<${comment.parentId ?? ''}`),
      (comment, why) => void moved.push(`${comment.id}: ${why}`),
    );
    await steps(o);
    return { placed, moved };
  }
  const c = (id: string, parentId: string | null = null): Threaded => ({ id, parentId });

  it('hands a reply on after its parent, however late the parent comes, with its own replies', async () => {
    const { placed, moved } = await order(async (o) => {
      await o.take(c('grandchild', 'child'));
      await o.take(c('child', 'top'));
      await o.take(c('top'));
      await o.finish();
    });
    expect(placed).toEqual(['top<', 'child<top', 'grandchild<child']);
    expect(moved).toEqual([]);
  });

  it('moves the replies of a skipped or missing parent to the top, keeping their own replies', async () => {
    const { placed, moved } = await order(async (o) => {
      await o.take(c('a', 'skipped'));
      await o.skip('skipped', 'spam');
      await o.take(c('b', 'skipped'));
      await o.take(c('y', 'x'));
      await o.take(c('x', 'missing'));
      // A loop: each answers the other.
      await o.take(c('p', 'q'));
      await o.take(c('q', 'p'));
      await o.finish();
    });
    expect(placed).toEqual(['a<', 'b<', 'x<', 'y<x', 'p<', 'q<p']);
    expect(moved).toEqual([
      'a: its parent skipped was skipped (spam)',
      'b: its parent skipped was skipped (spam)',
      'x: its parent missing is not in the file',
      'p: its parents loop back to it',
    ]);
  });

  it('hangs a reply from a parent an earlier run wrote', async () => {
    const { placed } = await order(async (o) => {
      await o.take(c('reply', 'earlier'));
      await o.finish(async (id) => id === 'earlier');
    });
    expect(placed).toEqual(['reply<earlier']);
  });
});

describe('parseTime and usernameBase', () => {
  it('takes ISO times only, not in the future', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseTime('2011-08-31T15:16:29Z', now)).toBe('2011-08-31T15:16:29.000Z');
    expect(parseTime('2017-12-20T15:18:22-06:00', now)).toBe('2017-12-20T21:18:22.000Z');
    expect(parseTime('2010-08-18 15:19:14', now)).toBe('2010-08-18T15:19:14.000Z');
    expect(parseTime('2011-03-07T21:17:17', now)).toBe('2011-03-07T21:17:17.000Z');
    for (const bad of ['1', 'yesterday', '', '2030-01-01T00:00:00Z', '2011-13-45']) {
      expect(parseTime(bad, now)).toBeNull();
    }
  });

  it('makes a valid username of any name', () => {
    expect(usernameBase('John Smith')).toBe('John_Smith');
    expect(usernameBase('Zoë 🚀 Ünal')).toBe('Zoë_Ünal');
    expect(usernameBase('Al')).toBe('Al_imported');
    expect(usernameBase('!!!')).toBe('reader_imported');
    expect(usernameBase('x'.repeat(50))).toHaveLength(30);
  });
});

describe('inBatch', () => {
  const t = useTestDatabase('sqlite');

  it('puts the report back as it was when the batch fails, and writes nothing of it', async () => {
    const { site } = await seedBasics(t.db, { userCount: 0 });
    const report = newReport('test', site.id, false);
    report.comments.imported = 3;
    report.skipped.push({ what: 'comment', id: 'a', line: 1, reason: 'kept' });
    await expect(
      inBatch(t.db, report, async (trx) => {
        report.comments.imported += 500;
        report.users.created += 2;
        report.skipped.push({ what: 'comment', id: 'b', line: 2, reason: 'rolled back' });
        await trx
          .insertInto('import_sources')
          .values({
            site_id: site.id,
            format: 'test',
            kind: 'user',
            source_id: 'x',
            parley_id: 'y',
            created_at: '2026-01-01T00:00:00.000Z',
          })
          .execute();
        throw new Error('disk gone');
      }),
    ).rejects.toThrow('disk gone');
    expect(report.comments.imported).toBe(3);
    expect(report.users.created).toBe(0);
    expect(report.skipped.map(({ id }) => id)).toEqual(['a']);
    expect(await countRows(t.db, 'import_sources')).toBe(0);
  });
});
