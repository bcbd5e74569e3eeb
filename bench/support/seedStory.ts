import type { ParleyServer } from '@parley/server';
import {
  createComment,
  createUser,
  findOrCreateStory,
  hashPassword,
  install,
  renderComment,
} from '@parley/server/testing';

/** Options of {@link seedStory}. */
export interface SeedStoryOptions {
  /** The site's URL, also its one permitted origin. */
  siteUrl: string;
  /** The story's URL. */
  storyUrl: string;
  /** Authors besides the admin (`reader0`, `reader1`…); comments go round them. */
  readers: number;
  /** Top-level comments, one minute apart, the last one a minute ago. */
  comments: number;
  /** Markdown of comment `i` (0 is the oldest). */
  body(i: number): string;
}

/**
 * An installed Parley with one story and its top-level comments, written straight into storage
 * (the benches' common start). Returns what a bench adds to: the story and the authors' ids.
 */
export async function seedStory(
  { db, box }: Pick<ParleyServer['deps'], 'db' | 'box'>,
  options: SeedStoryOptions,
): Promise<{ storyId: string; authorIds: string[] }> {
  const { site, admin } = await install(
    db,
    {
      organization: { name: 'Bench', contactEmail: 'bench@example.com', url: options.siteUrl },
      site: { name: 'Bench', url: options.siteUrl, allowedOrigins: [options.siteUrl] },
      admin: {
        email: 'admin@example.com',
        username: 'admin',
        passwordHash: await hashPassword('bench-admin'),
      },
    },
    box,
  );
  const authorIds = [admin.id];
  for (let i = 0; i < options.readers; i++) {
    const reader = await createUser(db, {
      username: `reader${i}`,
      email: `reader${i}@example.com`,
    });
    authorIds.push(reader.id);
  }
  const { story } = await findOrCreateStory(db, {
    siteId: site.id,
    url: options.storyUrl,
    title: 'Bench',
  });
  const start = Date.now() - options.comments * 60_000;
  for (let i = 0; i < options.comments; i++) {
    await createComment(db, {
      storyId: story.id,
      authorId: authorIds[i % authorIds.length]!,
      bodySource: options.body(i),
      bodyHtml: renderComment(options.body(i)),
      createdAt: new Date(start + i * 60_000).toISOString(),
    });
  }
  return { storyId: story.id, authorIds };
}
