import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedBasics } from '../db/testFixtures';
import { testDialects, useTestDatabase } from '../db/testDatabases';
import { findUserById, updateUser } from '../db/store/users';
import { insertCommentImage } from '../db/store/commentImages';
import { createLogger } from '../runtime/createLogger';
import { startAccountDeletionJob } from './startAccountDeletionJob';

const DAY_MS = 86_400_000;

describe.each(testDialects())('account deletion job on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-data-'));
    mkdirSync(join(dataDir, 'uploads', 'avatars'), { recursive: true });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const publicUrl = 'http://parley.test';
  const avatars = () => join(dataDir, 'uploads', 'avatars');

  it('deletes accounts past the grace period, with their avatar and image files, and leaves the others', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const { users } = await seedBasics(t.db, { userCount: 3 });
    const [due, early, keeper] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    // Both renderings of an avatar, and a comment image they uploaded.
    const avatar = `${due.id}-0123456789abcdef`;
    writeFileSync(join(avatars(), `${avatar}-256.webp`), 'webp');
    writeFileSync(join(avatars(), `${avatar}-64.webp`), 'webp');
    mkdirSync(join(dataDir, 'uploads', 'images'));
    /** An uploaded comment image of `userId`'s, file and row. */
    const uploadedImage = async (name: string, userId: string, createdAt: Date) => {
      writeFileSync(join(dataDir, 'uploads', 'images', name), 'webp');
      await insertCommentImage(t.db, {
        name,
        userId,
        storyId: 'any',
        width: 8,
        height: 8,
        bytes: 4,
        createdAt: createdAt.toISOString(),
      });
    };
    await uploadedImage('fedcba9876543210-8x8.webp', due.id, now);
    await updateUser(t.db, due.id, {
      deletionRequestedAt: new Date(now.getTime() - 7 * DAY_MS - 1).toISOString(),
      avatarUrl: `${publicUrl}/uploads/avatars/${avatar}-256.webp`,
    });
    // And an upload of the keeper's that no comment used for more than a week: housekeeping.
    await uploadedImage(
      '00112233445566ff-8x8.webp',
      keeper.id,
      new Date(now.getTime() - 8 * DAY_MS),
    );

    const job = startAccountDeletionJob({
      db: t.db,
      logger: createLogger({ level: 'silent' }),
      dataDir,
      publicUrl,
      now: () => now,
    });
    try {
      // The sweep at start is running; asking for one joins it instead of starting a second.
      const first = await job.sweep();
      const again = await job.sweep();
      expect([...first, ...again].map((d) => d.userId)).toEqual([due.id]);
      expect((await findUserById(t.db, due.id))?.username).toMatch(/^deleted-/);
      expect((await findUserById(t.db, early.id))?.username).toBe(early.username);
      expect((await findUserById(t.db, keeper.id))?.username).toBe(keeper.username);
      expect(readdirSync(avatars())).toEqual([]);
      expect(readdirSync(join(dataDir, 'uploads', 'images'))).toEqual([]);
      expect(await t.db.selectFrom('comment_images').select('name').execute()).toEqual([]);
    } finally {
      await job.stop();
    }
  });
});

describe.each(testDialects())('the sweep with several processes on %s', (dialect) => {
  const t = useTestDatabase(dialect);
  const until = async (check: () => boolean) => {
    for (let i = 0; !check(); i++) {
      if (i > 500) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('is run by one of them; another takes over when it stops', async () => {
    const runs: string[] = [];
    const start = (holder: string) =>
      startAccountDeletionJob({
        db: t.db,
        logger: createLogger({ level: 'silent' }),
        dataDir: tmpdir(),
        publicUrl: 'http://parley.test',
        holder,
        intervalMs: 30,
        // A still clock: a lease runs out only when given up, however late a tick comes.
        now: () => new Date('2026-11-26T12:00:00Z'),
        onRun: () => runs.push(holder),
      });
    const a = start('a');
    await until(() => runs.length > 0);
    const b = start('b');
    try {
      // Ticks of both, for a while: every sweep is a's.
      await until(() => runs.length >= 4);
      expect(new Set(runs)).toEqual(new Set(['a']));
      await a.stop();
      await until(() => runs.includes('b'));
      const after = runs.lastIndexOf('a');
      expect(runs.slice(after + 1).every((holder) => holder === 'b')).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
