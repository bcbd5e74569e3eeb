/**
 * Imports Parley's own export (EXPORT.md) into a site: `parley import parley FILE --site ID`.
 * Ids and times are kept, so an export imported into an empty install and exported again gives
 * the same document (the site aside: it is the one imported into, and `exportedAt`).
 *
 * The document is read in passes, each one array at a time (stream-json): the users first
 * (they come last in the file, and everything names them), then the stories, the comments, the
 * votes and the decisions, then the pins. Each pass writes in batches of IMPORT_BATCH, a
 * transaction each with its counters. What is here already is left as it is (a second run
 * writes nothing; a stopped one resumes).
 *
 * The file is input like any other: every field is checked, an id is kept only where it names
 * nothing here (else the row gets a new one, with a note), a user is an account here only when
 * their confirmed address (or, with `keepIdentities`, their SSO id) is its, and install-wide
 * roles and SSO ids come only with `keepIdentities` (the operator's word that the file is their
 * own export). Comments are rendered from their Markdown as a post is; avatars are not imported
 * (the files are not in the export).
 *
 * Replies do not wait for their parent (ids are in id order, not time order, and half of a big
 * thread's replies would wait, bodies and all): a reply whose parent is not written yet is
 * written at the top, and linked under its parent, its reply count moved, in the transaction
 * that writes the parent. A run that stopped between the two links it when run again.
 */
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { Db } from '../db/inTransaction';
import { isoTime, newId } from '../db/inTransaction';
import { COMMENT_STATUSES, STORY_STATUSES, USER_ROLES, isVisibleStatus } from '../db/schema';
import type {
  CommentRevisionsTable,
  CommentsTable,
  CommentStatus,
  UserRole,
  UsersTable,
} from '../db/schema';
import { isErasedAddress } from '../db/store/accountDeletion';
import { moveVoteCounts } from '../db/store/reactions';
import { adjustStoryCounts } from '../db/store/storyCounts';
import type { StoryCountChange } from '../db/store/storyCounts';
import { findStoryByUrl } from '../db/store/stories';
import { isPlaceholderAddress, uniqueKey } from '../db/store/users';
import { guestRow, validateGuestName } from '../db/store/guests';
import { renderComment } from '../markdown/renderComment';
import type { PremodMode } from '../moderation/evaluateComment';
import { ParleyError } from '../ParleyError';
import { neutralizeBidi, usernameSkeleton } from '../validation/lookalikes';
import { validateUsername } from '../validation/validateAccount';
import { EXPORT_FORMAT, EXPORT_VERSION } from './exportSite';
import { arrayElements, topValues } from './formats/jsonArrays';
import {
  IMPORT_BATCH,
  accountsByAddress,
  addReplyCounts,
  chunks,
  inBatch,
  own,
  newReport,
  parseTime,
  placeholderAddress,
  runImport,
  siteTarget,
  uniqueUsernames,
  usernameBase,
} from './importShared';
import type { ImportOptions, ImportReport, ReportedKind } from './importShared';

/** Options of {@link importParley}. */
export interface ParleyImportOptions extends ImportOptions {
  /**
   * Keep the users' roles (install-wide: an ADMIN of the file is one here) and SSO ids (bound to
   * the site imported into): for an install's own export, moved. Otherwise everyone comes in a
   * commenter, and SSO readers as accounts of their own.
   */
  keepIdentities?: boolean;
}

/** An element of the file: any JSON; each field is checked before use. */
type Fields = Record<string, unknown>;

const PREMOD_MODES: readonly (PremodMode | null)[] = [
  'OFF',
  'ALL',
  'LINKS',
  'NEW_COMMENTERS',
  null,
];
const TAGS: readonly string[] = ['FEATURED', 'STAFF'];

/** A non-empty string, or undefined. */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Whether `name` is a username Parley allows, as it is. */
function validUsername(name: string): boolean {
  try {
    return validateUsername(name) === name;
  } catch {
    return false;
  }
}

/** Imports the export `open()` reads into the site; see the module comment. */
export async function importParley(
  db: Db,
  open: () => Readable,
  options: ParleyImportOptions,
): Promise<ImportReport> {
  const report = newReport('parley', options.siteId, options.dryRun === true);
  await checkHeader(open);
  return runImport(db, report, (db) => run(db, open, options, report));
}

async function run(
  db: Db,
  open: () => Readable,
  options: ParleyImportOptions,
  report: ImportReport,
): Promise<void> {
  const { siteId, batchSize = IMPORT_BATCH, now = new Date() } = options;
  const keep = options.keepIdentities === true;
  const target = await siteTarget(db, siteId, options.rewriteOrigins);
  const skip = (what: ReportedKind, id: unknown, reason: string) =>
    report.skipped.push({ what, id: String(id ?? ''), line: null, reason });
  const note = (what: ReportedKind, id: string, reason: string) =>
    report.notes.push({ what, id, line: null, reason });
  /** A time of the file, normalized; undefined when it is not one. */
  const time = (value: unknown) =>
    typeof value === 'string' ? (parseTime(value, now) ?? undefined) : undefined;
  /** Null, or a time of the file normalized; undefined when it is neither. */
  const nullableTime = (value: unknown) => (value === null ? null : time(value));

  // The file's ids that are another row's here (taken, or the same person or story).
  const userIds = new Map<string, string>();
  const storyIds = new Map<string, string>();
  const commentIds = new Map<string, string>();
  const takenNames = new Set<string>();

  async function* batches(key: string): AsyncGenerator<Fields[]> {
    let batch: Fields[] = [];
    for await (const element of arrayElements<unknown>(open, key)) {
      if (typeof element !== 'object' || element === null || Array.isArray(element)) {
        skip(
          key === 'stories' ? 'thread' : (key.slice(0, -1) as ReportedKind),
          '',
          'it is not an object',
        );
        continue;
      }
      batch.push(element as Fields);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  // Users.
  for await (const users of batches('users')) {
    await inBatch(db, report, async (trx) => {
      const valid = users.flatMap((user) => {
        const id = text(user.id) && own(user.id as string);
        const email = text(user.email);
        const username = text(user.username);
        const createdAt = time(user.createdAt);
        const role = USER_ROLES.find((each) => each === user.role);
        const suspendedUntil =
          user.suspendedUntil === null
            ? null
            : typeof user.suspendedUntil === 'string' &&
                !Number.isNaN(Date.parse(user.suspendedUntil))
              ? new Date(user.suspendedUntil).toISOString()
              : undefined;
        if (!id || !email || !username || !createdAt || !role || suspendedUntil === undefined) {
          skip(
            'user',
            user.id,
            'its id, name, address, role, suspension or creation time is not one Parley writes',
          );
          return [];
        }
        const ssoId = keep && text(user.ssoId) ? own(user.ssoId as string) : null;
        return [{ id, email, username, createdAt, role, suspendedUntil, ssoId, user }];
      });
      // Guests come back as guests (store/guests.ts): matched by id alone, never by address.
      const guests = valid.filter((user) => user.user.guest === true);
      if (guests.length > 0) await importGuests(trx, guests);
      const byId = new Map(
        (
          await trx
            .selectFrom('users')
            .select(['id', 'email_key'])
            .where(
              'id',
              'in',
              valid.map((user) => user.id),
            )
            .execute()
        ).map((row) => [row.id, row.email_key]),
      );
      const byEmail = await accountsByAddress(
        trx,
        valid.map((user) => uniqueKey(user.email)),
      );
      const ssoIds = valid.flatMap((user) => (user.ssoId === null ? [] : [user.ssoId]));
      const bySso = new Map(
        (ssoIds.length === 0
          ? []
          : await trx
              .selectFrom('users')
              .select(['id', 'sso_id'])
              .where('sso_site_id', '=', siteId)
              .where('sso_id', 'in', ssoIds)
              .execute()
        ).map((row) => [row.sso_id, row.id]),
      );
      const given = new Set<string>();
      const fresh: (Omit<
        Insertable<UsersTable>,
        'username' | 'username_key' | 'username_skeleton'
      > & {
        wanted: string;
        erased: boolean;
      })[] = [];
      for (const user of valid) {
        if (user.user.guest === true) continue;
        const key = uniqueKey(user.email);
        const placeholder = isPlaceholderAddress(user.email);
        const account = byEmail.get(key);
        const sameId = byId.get(user.id);
        const same =
          (sameId !== undefined && sameId === key ? user.id : undefined) ??
          (user.ssoId === null ? undefined : bySso.get(user.ssoId)) ??
          (account?.usable && !placeholder && user.user.emailVerified === true
            ? account.id
            : undefined);
        if (same !== undefined) {
          userIds.set(user.id, same);
          report.users.matched += 1;
          continue;
        }
        const id = sameId === undefined ? user.id : newId();
        if (id !== user.id)
          note('user', user.id, `its id is another account's here: imported as ${id}`);
        let email = user.email;
        if (account !== undefined || given.has(key)) {
          email = placeholderAddress(id);
          if (!placeholder)
            note(
              'user',
              user.id,
              `the address ${user.email} is another account's here: imported without it`,
            );
        }
        given.add(uniqueKey(email));
        if (!keep && user.role !== 'COMMENTER') {
          note(
            'user',
            user.id,
            `imported as a commenter, not ${user.role} (--keep-identities keeps roles)`,
          );
        }
        userIds.set(user.id, id);
        fresh.push({
          id,
          wanted: user.username,
          // An account Parley erased (`deleted-…`, `…@deleted.invalid`) stays erased.
          erased: isErasedAddress(user.email),
          email,
          email_key: uniqueKey(email),
          email_verified: user.user.emailVerified === true && email === user.email ? 1 : 0,
          password_hash: null,
          role: keep ? user.role : ('COMMENTER' as UserRole),
          banned: user.user.banned === true ? 1 : 0,
          suspended_until: user.suspendedUntil,
          avatar_url: null,
          notification_prefs: '{}',
          sso_site_id: user.ssoId === null ? null : siteId,
          sso_id: user.ssoId,
          created_at: user.createdAt,
        });
      }
      const names = await keptUsernames(trx, fresh);
      const rows: Insertable<UsersTable>[] = fresh.map(({ wanted, erased, ...row }, index) => {
        const username = names[index] as string;
        if (username !== wanted) {
          note(
            'user',
            row.id,
            `the username ${wanted} is taken here or not one Parley allows: imported as ${username}`,
          );
        }
        return {
          ...row,
          username,
          username_key: uniqueKey(username),
          username_skeleton: erased ? null : usernameSkeleton(username),
          deleted_at: erased ? isoTime(now) : null,
        };
      });
      for (const chunk of chunks(rows, 100)) await trx.insertInto('users').values(chunk).execute();
      report.users.created += rows.length;
    });
    options.onProgress?.(report);
  }

  /**
   * Guests of the file as guests: the one here with the same id (a rerun), else a new guest with
   * the name as written (a name guests may not have becomes "Guest", noted) and the address, which
   * joins no account whatever it is. Their role is always a commenter's.
   */
  async function importGuests(
    trx: Db,
    guests: { id: string; email: string; username: string; createdAt: string; user: Fields }[],
  ): Promise<void> {
    // Ids here already: a guest's (this file's, imported before) or anyone else's.
    const here = new Map(
      (
        await trx
          .selectFrom('users')
          .select(['id', 'guest'])
          .where(
            'id',
            'in',
            guests.map((guest) => guest.id),
          )
          .execute()
      ).map((row) => [row.id, row.guest === 1]),
    );
    const rows: Insertable<UsersTable>[] = [];
    for (const guest of guests) {
      if (here.get(guest.id) === true) {
        userIds.set(guest.id, guest.id);
        report.users.matched += 1;
        continue;
      }
      const id = here.has(guest.id) ? newId() : guest.id;
      if (id !== guest.id)
        note('user', guest.id, `its id is another account's here: imported as ${id}`);
      let name = 'Guest';
      try {
        name = validateGuestName(guest.username);
      } catch {
        note(
          'user',
          guest.id,
          `the name ${guest.username} is not one guests may have: imported as Guest`,
        );
      }
      userIds.set(guest.id, id);
      rows.push(
        guestRow(id, {
          name,
          email: isPlaceholderAddress(guest.email) ? null : guest.email,
          emailVerified: guest.user.emailVerified === true,
          banned: guest.user.banned === true,
          ip: null,
          createdAt: guest.createdAt,
        }),
      );
    }
    for (const chunk of chunks(rows, 100)) await trx.insertInto('users').values(chunk).execute();
    report.users.created += rows.length;
  }

  /**
   * Each wanted name as it is when it is a valid name and free here (or an erased account's
   * `deleted-…`, which only Parley writes); any other as a new import's would be.
   */
  function keptUsernames(trx: Db, users: { wanted: string; erased: boolean }[]): Promise<string[]> {
    const erased = new Set(users.flatMap((user) => (user.erased ? [user.wanted] : [])));
    return uniqueUsernames(
      trx,
      users.map((user) => user.wanted),
      takenNames,
      (name) => (erased.has(name) || validUsername(name) ? name : usernameBase(name)),
    );
  }

  // Stories; their pins are set once the comments are in.
  const pins = new Map<string, string>();
  for await (const stories of batches('stories')) {
    await inBatch(db, report, async (trx) => {
      for (const story of stories) {
        const id = text(story.id) && own(story.id as string);
        const title = typeof story.title === 'string' ? story.title : undefined;
        const status = STORY_STATUSES.find((each) => each === story.status);
        const premod = PREMOD_MODES.find((each) => each === story.premod);
        const createdAt = time(story.createdAt);
        const closedAt = nullableTime(story.closedAt);
        const externalId = story.externalId === null ? null : text(story.externalId);
        const liveUpdates = story.liveUpdates;
        if (
          !id ||
          typeof story.url !== 'string' ||
          title === undefined ||
          !status ||
          (premod === undefined && story.premod !== null) ||
          !createdAt ||
          closedAt === undefined ||
          externalId === undefined ||
          (liveUpdates !== null && typeof liveUpdates !== 'boolean')
        ) {
          skip('thread', story.id, 'its fields are not ones Parley writes');
          continue;
        }
        const url = target.storyUrl(story.url);
        if ('reason' in url) {
          skip('thread', id, url.reason);
          continue;
        }
        const atUrl = await findStoryByUrl(trx, url.url);
        if (atUrl !== undefined && atUrl.siteId !== siteId) {
          skip('thread', id, `${url.url} is a story of another site`);
          continue;
        }
        const pinned = text(story.pinnedCommentId) && own(story.pinnedCommentId as string);
        if (atUrl !== undefined) {
          storyIds.set(id, atUrl.id);
          if (pinned) pins.set(atUrl.id, pinned);
          report.stories.matched += 1;
          continue;
        }
        const taken = await trx
          .selectFrom('stories')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst();
        const hereId = taken === undefined ? id : newId();
        if (hereId !== id)
          note('thread', id, `its id is another story's here: imported as ${hereId}`);
        await trx
          .insertInto('stories')
          .values({
            id: hereId,
            site_id: siteId,
            url: url.url,
            external_id: externalId,
            title: title.slice(0, 300),
            status,
            premod: premod ?? null,
            live_updates: liveUpdates === null ? null : liveUpdates ? 1 : 0,
            created_at: createdAt,
            closed_at: closedAt,
          })
          .execute();
        storyIds.set(id, hereId);
        if (pinned) pins.set(hereId, pinned);
        report.stories.created += 1;
      }
    });
  }

  // Comments. A reply whose parent is not written yet waits as a link (its id, by the parent's
  // id in the file), not as a comment.
  const seen = new Set<string>();
  const links = new Map<string, string[]>();
  for await (const comments of batches('comments')) {
    await inBatch(db, report, (trx) => writeComments(trx, comments));
    options.onProgress?.(report);
  }
  for (const [parentId, children] of links) {
    for (const child of children) {
      note(
        'comment',
        child,
        `its parent ${parentId} is not in the file: imported at the top of its thread`,
      );
    }
  }
  links.clear();

  async function writeComments(trx: Db, comments: Fields[]): Promise<void> {
    interface Valid {
      id: string;
      storyId: string;
      parentId: string | null;
      authorId: string;
      source: string;
      status: CommentStatus;
      tags: string[];
      createdAt: string;
      editedAt: string | null;
      publishedAt: string | null;
      deletedAt: string | null;
    }
    const valid: Valid[] = [];
    for (const comment of comments) {
      const id = text(comment.id) && own(comment.id as string);
      const storyId = storyIds.get(String(comment.storyId));
      const authorId = userIds.get(String(comment.authorId));
      const status = COMMENT_STATUSES.find((each) => each === comment.status);
      const parentId =
        comment.parentId === null
          ? null
          : text(comment.parentId) && own(comment.parentId as string);
      const createdAt = time(comment.createdAt);
      const editedAt = nullableTime(comment.editedAt);
      const publishedAt = nullableTime(comment.publishedAt);
      const deletedAt = nullableTime(comment.deletedAt);
      if (!id || seen.has(id)) {
        skip('comment', comment.id, id ? 'the file has this id twice' : 'it has no id');
      } else if (storyId === undefined) {
        skip(
          'comment',
          id,
          `its story ${String(comment.storyId)} was skipped or is not in the file`,
        );
      } else if (authorId === undefined) {
        skip(
          'comment',
          id,
          `its author ${String(comment.authorId)} was skipped or is not in the file`,
        );
      } else if (
        typeof comment.bodySource !== 'string' ||
        !status ||
        parentId === undefined ||
        !createdAt ||
        editedAt === undefined ||
        publishedAt === undefined ||
        deletedAt === undefined ||
        !Array.isArray(comment.tags)
      ) {
        skip('comment', id, 'its fields are not ones Parley writes');
      } else {
        seen.add(id);
        valid.push({
          id,
          storyId,
          parentId,
          authorId,
          source: deletedAt === null ? neutralizeBidi(comment.bodySource).trim() : '',
          status,
          tags: comment.tags.filter((tag): tag is string => TAGS.includes(tag as string)),
          createdAt,
          editedAt,
          // Published when readers could see it: a visible comment without a time has its own.
          publishedAt: publishedAt ?? (isVisibleStatus(status) ? createdAt : null),
          deletedAt,
        });
      }
    }
    // What is here already under these ids (an earlier run, or another site's row).
    const here = new Map(
      (valid.length === 0
        ? []
        : await trx
            .selectFrom('comments')
            .select(['id', 'site_id', 'story_id', 'parent_id', 'author_id'])
            .where(
              'id',
              'in',
              valid.map((comment) => comment.id),
            )
            .execute()
      ).map((row) => [row.id, row]),
    );
    // Parents the batch names that are written (here already, or earlier in the batch).
    const parentIds = valid.flatMap((comment) =>
      comment.parentId === null ? [] : [commentIds.get(comment.parentId) ?? comment.parentId],
    );
    const parents = new Map(
      (parentIds.length === 0
        ? []
        : await trx
            .selectFrom('comments')
            .select(['id', 'author_id', 'story_id'])
            .where('id', 'in', parentIds)
            .where('site_id', '=', siteId)
            .execute()
      ).map((row) => [row.id, row]),
    );
    const inserts: Insertable<CommentsTable>[] = [];
    const revisions: Insertable<CommentRevisionsTable>[] = [];
    const counts: StoryCountChange[] = [];
    const written: { fileId: string; id: string; authorId: string; storyId: string }[] = [];
    const waitFor = (parentFileId: string, childId: string) => {
      const list = links.get(parentFileId) ?? [];
      list.push(childId);
      links.set(parentFileId, list);
    };
    for (const comment of valid) {
      const existing = here.get(comment.id);
      if (existing !== undefined && existing.site_id === siteId) {
        report.comments.already += 1;
        commentIds.set(comment.id, comment.id);
        written.push({
          fileId: comment.id,
          id: comment.id,
          authorId: existing.author_id,
          storyId: existing.story_id,
        });
        // Written at the top by a run that stopped before its parent came: link it now.
        if (existing.parent_id === null && comment.parentId !== null)
          waitFor(comment.parentId, comment.id);
        continue;
      }
      const id = existing === undefined ? comment.id : newId();
      if (id !== comment.id)
        note('comment', comment.id, `its id is another site's comment here: imported as ${id}`);
      commentIds.set(comment.id, id);
      const parentHere =
        comment.parentId === null
          ? undefined
          : (commentIds.get(comment.parentId) ?? comment.parentId);
      const parent = parentHere === undefined ? undefined : parents.get(parentHere);
      const linked = parent !== undefined && parent.story_id === comment.storyId;
      if (parent !== undefined && !linked) {
        note(
          'comment',
          comment.id,
          `its parent ${comment.parentId} is in another story: imported at the top of its thread`,
        );
      } else if (comment.parentId !== null && parent === undefined) {
        waitFor(comment.parentId, id);
      }
      const html = comment.source === '' ? '' : renderComment(comment.source);
      inserts.push({
        id,
        story_id: comment.storyId,
        author_id: comment.authorId,
        parent_id: linked ? parent.id : null,
        body_source: comment.source,
        body_html: html,
        status: comment.status,
        held_because: null,
        tags: JSON.stringify(comment.tags),
        client_mutation_id: null,
        created_at: comment.createdAt,
        edited_at: comment.editedAt,
        published_at: comment.publishedAt,
        deleted_at: comment.deletedAt,
        site_id: siteId,
        parent_author_id: linked ? parent.author_id : null,
      });
      // Later comments of the batch may answer it.
      parents.set(id, { id, author_id: comment.authorId, story_id: comment.storyId });
      written.push({
        fileId: comment.id,
        id,
        authorId: comment.authorId,
        storyId: comment.storyId,
      });
      if (comment.deletedAt === null) {
        revisions.push({
          id: newId(),
          comment_id: id,
          body_source: comment.source,
          body_html: html,
          created_at: comment.editedAt ?? comment.createdAt,
        });
        counts.push({ storyId: comment.storyId, status: comment.status, delta: 1 });
      }
      report.comments.imported += 1;
    }
    for (const chunk of chunks(inserts, 100))
      await trx.insertInto('comments').values(chunk).execute();
    for (const chunk of chunks(revisions, 200)) {
      await trx.insertInto('comment_revisions').values(chunk).execute();
    }
    // Replies of this batch under parents written before it or in it, and replies that waited
    // for a parent of this batch: linked, and counted when readers see them.
    const replies = new Map<string, number>();
    for (const row of inserts) {
      if (
        row.parent_id &&
        row.deleted_at === null &&
        isVisibleStatus(row.status as CommentStatus)
      ) {
        replies.set(row.parent_id, (replies.get(row.parent_id) ?? 0) + 1);
      }
    }
    for (const parent of written) {
      const children = links.get(parent.fileId);
      if (children === undefined) continue;
      links.delete(parent.fileId);
      const rows = await trx
        .selectFrom('comments')
        .select(['id', 'story_id', 'status', 'deleted_at'])
        .where('id', 'in', children)
        .where('parent_id', 'is', null)
        .execute();
      for (const child of rows) {
        if (child.story_id !== parent.storyId) {
          note(
            'comment',
            child.id,
            `its parent ${parent.fileId} is in another story: imported at the top of its thread`,
          );
          continue;
        }
        await trx
          .updateTable('comments')
          .set({ parent_id: parent.id, parent_author_id: sql<string>`${parent.authorId}` } as never)
          .where('id', '=', child.id)
          .execute();
        if (child.deleted_at === null && isVisibleStatus(child.status)) {
          replies.set(parent.id, (replies.get(parent.id) ?? 0) + 1);
        }
      }
    }
    await addReplyCounts(trx, replies);
    await adjustStoryCounts(trx, counts);
  }

  // Votes: inserted unless there, the comments' counts moved by those inserted.
  for await (const votes of batches('votes')) {
    await inBatch(db, report, async (trx) => {
      const rows = votes.flatMap((vote) => {
        const commentId = commentIds.get(String(vote.commentId));
        const userId = userIds.get(String(vote.userId));
        const createdAt = time(vote.createdAt);
        if (!commentId || !userId || (vote.value !== 1 && vote.value !== -1) || !createdAt) {
          skip(
            'vote',
            `${String(vote.commentId)}/${String(vote.userId)}`,
            'its comment or its voter was not imported, or it is not a vote',
          );
          return [];
        }
        return [
          {
            comment_id: commentId,
            user_id: userId,
            value: vote.value as 1 | -1,
            created_at: createdAt,
          },
        ];
      });
      // A deleted comment takes no votes (the store refuses them).
      const live = new Set(
        (rows.length === 0
          ? []
          : await trx
              .selectFrom('comments')
              .select('id')
              .where(
                'id',
                'in',
                rows.map((row) => row.comment_id),
              )
              .where('deleted_at', 'is', null)
              .execute()
        ).map((row) => row.id),
      );
      const moved = new Map<string, { up: number; down: number }>();
      for (const chunk of chunks(
        rows.filter((row) => live.has(row.comment_id)),
        200,
      )) {
        const inserted = await trx
          .insertInto('reactions')
          .values(chunk)
          .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing())
          .returning(['comment_id', 'value'])
          .execute();
        for (const { comment_id, value } of inserted) {
          const entry = moved.get(comment_id) ?? { up: 0, down: 0 };
          if (value === 1) entry.up += 1;
          else entry.down += 1;
          moved.set(comment_id, entry);
        }
      }
      for (const [commentId, { up, down }] of [...moved].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await moveVoteCounts(trx, commentId, up, down);
      }
    });
  }

  // Decisions, as they were.
  for await (const decisions of batches('decisions')) {
    await inBatch(db, report, async (trx) => {
      const rows = decisions.flatMap((decision) => {
        const id = text(decision.id);
        const commentId = commentIds.get(String(decision.commentId));
        const moderatorId =
          decision.moderatorId === null ? null : userIds.get(String(decision.moderatorId));
        const status = COMMENT_STATUSES.find((each) => each === decision.status);
        const createdAt = time(decision.createdAt);
        if (!id || !commentId || moderatorId === undefined || !status || !createdAt) {
          skip(
            'decision',
            decision.id,
            'its comment or its moderator was not imported, or it is not a decision',
          );
          return [];
        }
        return [
          { id, comment_id: commentId, moderator_id: moderatorId, status, created_at: createdAt },
        ];
      });
      for (const chunk of chunks(rows, 200)) {
        const inserted = new Set(
          (
            await trx
              .insertInto('moderation_decisions')
              .values(chunk)
              .onConflict((oc) => oc.column('id').doNothing())
              .returning('id')
              .execute()
          ).map((row) => row.id),
        );
        // Ours from an earlier run are the same decision; another's id is reported.
        const taken = chunk.filter((row) => !inserted.has(row.id)).map((row) => row.id);
        if (taken.length === 0) continue;
        const ours = new Set(
          (
            await trx
              .selectFrom('moderation_decisions')
              .select(['id', 'comment_id'])
              .where('id', 'in', taken)
              .execute()
          )
            .filter((row) =>
              chunk.some((each) => each.id === row.id && each.comment_id === row.comment_id),
            )
            .map((row) => row.id),
        );
        for (const id of taken)
          if (!ours.has(id)) skip('decision', id, 'its id is another decision’s here');
      }
    });
  }

  // Pins: a story's pointer, to a comment of that story now here.
  for (const [storyId, fileCommentId] of pins) {
    const commentId = commentIds.get(fileCommentId);
    const pinned =
      commentId !== undefined &&
      (await db
        .updateTable('stories')
        .set({ pinned_comment_id: commentId })
        .where('id', '=', storyId)
        .where('pinned_comment_id', 'is', null)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('comments')
              .select('comments.id')
              .where('comments.id', '=', commentId)
              .where('comments.story_id', '=', storyId),
          ),
        )
        .executeTakeFirst());
    if (pinned === false || (pinned && Number(pinned.numUpdatedRows) === 0)) {
      const current = await db
        .selectFrom('stories')
        .select('pinned_comment_id')
        .where('id', '=', storyId)
        .executeTakeFirst();
      if (current?.pinned_comment_id !== commentId) {
        skip(
          'thread',
          storyId,
          `its pinned comment ${fileCommentId} is not one of its comments here`,
        );
      }
    }
  }
}

/** Refuses a document that is not Parley's export, or of a version this server does not read. */
async function checkHeader(open: () => Readable): Promise<void> {
  let format: unknown;
  let version: unknown;
  for await (const value of topValues(open, /^(format|version)$/)) {
    if (typeof value === 'string') format = value;
    else version = value;
    if (format !== undefined && version !== undefined) break;
  }
  if (format !== EXPORT_FORMAT) {
    throw new ParleyError(
      'INVALID_INPUT',
      `This is not a Parley export: its "format" is ${JSON.stringify(format ?? null)}, where "${EXPORT_FORMAT}" was expected.`,
      { field: 'file' },
    );
  }
  if (version !== EXPORT_VERSION) {
    throw new ParleyError(
      'INVALID_INPUT',
      `This export is version ${JSON.stringify(version ?? null)}; this server reads version ${EXPORT_VERSION}.`,
      { field: 'file' },
    );
  }
}
