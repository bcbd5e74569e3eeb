/**
 * The data the fuzzer starts from (a site, a story, a thread, readers of each role) and the
 * checks that the data still holds together after it. Test support only.
 */
import { sql } from 'kysely';
import { hashPassword } from '../../auth/passwords';
import type { Db } from '../../db/inTransaction';
import { createComment } from '../../db/store/comments';
import { findOrCreateStory } from '../../db/store/stories';
import { createUser } from '../../db/store/users';
import { VISIBLE_COMMENT_STATUSES } from '../../db/schema';
import { renderComment } from '../../markdown/renderComment';
import { installOverHttp } from '../../runtime/testing/installOverHttp';
import type { FuzzContext } from './fuzzOperations';

const SITE = 'https://site.example';
const PASSWORD = 'correct horse battery';

/**
 * Installs a running server at `url` and fills it: a story with a comment and a reply, a
 * commenter and a moderator. Resolves what the fuzzer may name (ids, URLs, emails), the user ids
 * of its viewers (signed out, commenter, moderator, admin) and the origin its requests come from.
 */
export async function seedFuzzData(
  url: string,
  db: Db,
): Promise<{ context: FuzzContext; viewers: (string | undefined)[]; origin: string }> {
  await installOverHttp(url, { site: SITE, password: PASSWORD });
  const passwordHash = await hashPassword(PASSWORD);
  const commenter = await createUser(db, {
    username: 'commenter',
    email: 'commenter@example.com',
    passwordHash,
    emailVerified: true,
  });
  const moderator = await createUser(db, {
    username: 'moderator',
    email: 'moderator@example.com',
    passwordHash,
    emailVerified: true,
    role: 'MODERATOR',
  });
  const site = await db.selectFrom('sites').select('id').executeTakeFirstOrThrow();
  const storyUrl = `${SITE}/articles/fuzzed`;
  const { story } = await findOrCreateStory(db, { siteId: site.id, url: storyUrl, title: 'Fuzz' });
  const { comment } = await createComment(db, {
    storyId: story.id,
    authorId: commenter.id,
    bodySource: 'A comment',
    bodyHtml: renderComment('A comment'),
    createdAt: new Date().toISOString(),
  });
  const { comment: reply } = await createComment(db, {
    storyId: story.id,
    authorId: moderator.id,
    parentId: comment.id,
    bodySource: 'A reply',
    bodyHtml: renderComment('A reply'),
    createdAt: new Date().toISOString(),
  });
  const keys = await db.selectFrom('sso_keys').select('id').execute();
  const admin = await db.selectFrom('users').select('id').where('role', '=', 'ADMIN').execute();
  return {
    context: {
      known: [
        story.id,
        comment.id,
        reply.id,
        commenter.id,
        moderator.id,
        ...admin.map((a) => a.id),
        site.id,
        ...keys.map((k) => k.id),
        storyUrl,
        SITE,
        'commenter@example.com',
        'moderator@example.com',
        PASSWORD,
        'commenter',
      ],
    },
    viewers: [undefined, commenter.id, moderator.id, admin[0]!.id],
    origin: SITE,
  };
}

/**
 * What does not hold together, described (empty when all is well): each comment's reply count is
 * its visible direct replies (comments.ts's rule), its reaction count its reactions, and every
 * comment, reaction and report points at rows that exist.
 */
export async function checkIntegrity(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const replies = await db
    .selectFrom('comments as c')
    .select(['c.id', 'c.reply_count'])
    .select((eb) =>
      eb
        .selectFrom('comments as r')
        .whereRef('r.parent_id', '=', 'c.id')
        .where('r.status', 'in', [...VISIBLE_COMMENT_STATUSES])
        .select((f) => f.fn.countAll<number>().as('n'))
        .as('visible'),
    )
    .select((eb) =>
      eb
        .selectFrom('reactions')
        .whereRef('reactions.comment_id', '=', 'c.id')
        .select((f) => f.fn.countAll<number>().as('n'))
        .as('reactions'),
    )
    .select('c.reaction_count')
    .execute();
  for (const row of replies) {
    if (Number(row.visible) !== row.reply_count) {
      problems.push(
        `comment ${row.id}: reply_count ${row.reply_count}, visible replies ${row.visible}`,
      );
    }
    if (Number(row.reactions) !== row.reaction_count) {
      problems.push(
        `comment ${row.id}: reaction_count ${row.reaction_count}, reactions ${row.reactions}`,
      );
    }
  }
  const orphans = await sql<{ what: string }>`
    select 'comment ' || id as what from comments
      where story_id not in (select id from stories) or author_id not in (select id from users)
    union all
    select 'reaction on ' || comment_id from reactions where comment_id not in (select id from comments)
    union all
    select 'report on ' || comment_id from reports where comment_id not in (select id from comments)
  `.execute(db);
  problems.push(...orphans.rows.map((row) => `orphan ${row.what}`));
  return problems;
}
