/** Rows most storage and API tests start from. Test-only; never imported by the server. */
import { createSecretBox } from '../auth/secretBox';
import type { Db } from './inTransaction';
import { createSite } from './store/sites';
import type { Site } from './store/sites';
import { findOrCreateStory } from './store/stories';
import type { Story } from './store/stories';
import { createUser } from './store/users';
import type { User } from './store/users';
import type { UserRole } from './schema';

/** Seals the stored secrets of test databases (a fixed key: tests open what they stored). */
export const testBox = createSecretBox({ current: new Uint8Array(32).fill(9) });

/** What {@link seedBasics} created. */
export interface Seeded {
  site: Site;
  story: Story;
  /** `user0` … `user<n-1>`, commenters unless `roles` says otherwise. */
  users: User[];
}

/**
 * A site permitting `https://news.example`, one story on it and `userCount` users
 * (`user0@example.com`, …).
 */
export async function seedBasics(
  db: Db,
  { userCount = 3, roles = [] as UserRole[] } = {},
): Promise<Seeded> {
  const { site } = await createSite(
    db,
    { name: 'News', url: 'https://news.example', allowedOrigins: ['https://news.example'] },
    testBox,
  );
  const { story } = await findOrCreateStory(db, {
    siteId: site.id,
    url: 'https://news.example/a',
    title: 'A story',
  });
  const users: User[] = [];
  for (let i = 0; i < userCount; i += 1) {
    users.push(
      await createUser(db, {
        username: `user${i}`,
        email: `user${i}@example.com`,
        passwordHash: 'hash',
        role: roles[i] ?? 'COMMENTER',
      }),
    );
  }
  return { site, story, users };
}

/** Counts the rows of a table (a number on both drivers). */
export async function countRows(
  db: Db,
  table: Parameters<Db['selectFrom']>[0] & string,
): Promise<number> {
  const row = await db
    .selectFrom(table as 'users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
