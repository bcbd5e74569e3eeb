// A story of any size, written straight into storage in batches (the API would take an hour for
// 100,000 comments, and the bench measures reading): mixed depths, mixed statuses, reports, as a
// long-running popular thread has them. Deterministic: the same size gives the same thread.
import { seededRandom as random } from './seededRandom';
import { randomUUID } from 'node:crypto';
import type { ParleyServer } from '@parley/server';
import type { CommentStatus } from '../../packages/server/src/db/schema';
import { REPORTED_COUNTER } from '../../packages/server/src/db/store/storyCounts';
import type { CountedKey } from '../../packages/server/src/db/store/storyCounts';

/** What {@link writeBigStory} made. */
export interface BigStory {
  /** Ids of every comment, oldest first. */
  ids: string[];
  /** A reply deep in the thread (depth 6 or more), for the permalink request. */
  deepId: string;
}

const BATCH = 500;

/**
 * Writes `count` comments on `storyId` by `authorIds`, one second apart ending now: a fifth
 * top-level, the rest replies (mostly to recent comments, so threads run deep); 90 % published,
 * the rest held, approved, rejected or reported. Reply counts and the story's counters (its
 * Reported queue's too) are set as the store keeps them.
 */
export async function writeBigStory(
  { db }: Pick<ParleyServer['deps'], 'db'>,
  storyId: string,
  authorIds: readonly string[],
  count: number,
): Promise<BigStory> {
  const next = random(count);
  const ids: string[] = [];
  const depth: number[] = [];
  const rows = [];
  const replies = new Map<number, number>();
  const byStatus = new Map<CountedKey, number>();
  let deepId: string | undefined;
  const start = Date.now() - count * 1000;
  // Each comment carries its story's site (0018_recent_comments), as the store writes it.
  const { site_id: siteId } = await db
    .selectFrom('stories')
    .select('site_id')
    .where('id', '=', storyId)
    .executeTakeFirstOrThrow();
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const topLevel = i === 0 || next() < 0.2;
    // Replies go mostly to the last few hundred comments: long chains, like a live thread.
    const parentIndex = topLevel ? -1 : Math.max(0, i - 1 - Math.floor(next() * Math.min(i, 300)));
    const d = topLevel ? 0 : depth[parentIndex]! + 1;
    ids.push(id);
    depth.push(d);
    if (d >= 6 && deepId === undefined && i > count / 2) deepId = id;
    const roll = next();
    const status: CommentStatus =
      roll < 0.9 ? 'NONE' : roll < 0.93 ? 'PREMOD' : roll < 0.96 ? 'APPROVED' : 'REJECTED';
    const reported = status === 'NONE' && next() < 0.02;
    // The counters the store keeps: visible direct replies, comments per status.
    if (!topLevel && (status === 'NONE' || status === 'APPROVED')) {
      replies.set(parentIndex, (replies.get(parentIndex) ?? 0) + 1);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    if (reported) byStatus.set(REPORTED_COUNTER, (byStatus.get(REPORTED_COUNTER) ?? 0) + 1);
    rows.push({
      id,
      story_id: storyId,
      site_id: siteId,
      author_id: authorIds[i % authorIds.length]!,
      parent_id: topLevel ? null : ids[parentIndex]!,
      parent_author_id: topLevel ? null : authorIds[parentIndex % authorIds.length]!,
      body_source: `Comment ${i} of the big story.`,
      body_html: `<p>Comment ${i} of the big story.</p>`,
      status,
      held_because: status === 'PREMOD' ? '["PREMOD_ALL"]' : null,
      tags: '[]',
      report_count: reported ? 2 : 0,
      reviewed_report_count: 0,
      reply_count: 0,
      created_at: new Date(start + i * 1000).toISOString(),
      published_at:
        status === 'NONE' || status === 'APPROVED'
          ? new Date(start + i * 1000).toISOString()
          : null,
    });
  }
  for (const [index, n] of replies) rows[index]!.reply_count = n;
  for (let from = 0; from < count; from += BATCH) {
    await db
      .insertInto('comments')
      .values(rows.slice(from, from + BATCH))
      .execute();
  }
  for (const [status, n] of byStatus) {
    await db
      .insertInto('story_comment_counts')
      .values({ story_id: storyId, status, count: n })
      .execute();
  }
  return { ids, deepId: deepId ?? ids[ids.length - 1]! };
}
