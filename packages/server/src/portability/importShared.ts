/**
 * What the importers share (importSite.ts for other systems' formats, importParley.ts for
 * Parley's own): the report, the dry run, where a thread's URL lands, usernames, times, and the
 * reply counts a batch moves.
 */
import { sql } from 'kysely';
import type { Db } from '../db/inTransaction';
import { inTransaction, parseJson } from '../db/inTransaction';
import { refreshPlannerStatistics } from '../db/plannerStatistics';
import { isUsernameFree, uniqueKey } from '../db/store/users';
import { canonicalStoryUrl } from '../graphql/resolvers/stories';
import { ParleyError } from '../ParleyError';
import { usernameSkeleton } from '../validation/lookalikes';
import { validateUsername } from '../validation/validateAccount';

/** The domain of the placeholder address of an imported person without a usable one. */
export const IMPORTED_EMAIL_DOMAIN = 'imported.invalid';

/** The placeholder address of the imported account `userId`: it reaches nobody. */
export function placeholderAddress(userId: string): string {
  return `${userId}@${IMPORTED_EMAIL_DOMAIN}`;
}

/** Rows written per transaction (comments, users, votes…). */
export const IMPORT_BATCH = 500;

/** What a report line is about. */
export type ReportedKind = 'thread' | 'comment' | 'user' | 'vote' | 'decision';

/** One line of the report about an item: skipped, or imported with a change. */
export interface ReportEntry {
  what: ReportedKind;
  id: string;
  line: number | null;
  reason: string;
}

/** What an import did (or, with `dryRun`, would do). */
export interface ImportReport {
  format: string;
  siteId: string;
  dryRun: boolean;
  stories: { created: number; matched: number };
  users: { created: number; matched: number };
  comments: { imported: number; already: number };
  /** Items not imported, each with its reason. */
  skipped: ReportEntry[];
  /** Items imported with a change (a reply moved to the top of its thread, a renamed user). */
  notes: ReportEntry[];
  /** Wall time, in seconds. */
  seconds: number;
}

/** Options of an import. */
export interface ImportOptions {
  siteId: string;
  /** Write nothing: one transaction, rolled back at the end. */
  dryRun?: boolean;
  /** Old origin → new origin, for threads of a site that moved (`https://old.example`). */
  rewriteOrigins?: ReadonlyMap<string, string>;
  /** @default IMPORT_BATCH */
  batchSize?: number;
  /** Told after each batch. */
  onProgress?(report: ImportReport): void;
  /** @default now */
  now?: Date;
}

/** An empty report. */
export function newReport(format: string, siteId: string, dryRun: boolean): ImportReport {
  return {
    format,
    siteId,
    dryRun,
    stories: { created: 0, matched: 0 },
    users: { created: 0, matched: 0 },
    comments: { imported: 0, already: 0 },
    skipped: [],
    notes: [],
    seconds: 0,
  };
}

/** The report so far of an import that failed (the batches it names were written). */
const partialReports = new WeakMap<object, ImportReport>();

/** What an import that threw `error` had done before, if it was an import. */
export function partialReport(error: unknown): ImportReport | undefined {
  return typeof error === 'object' && error !== null ? partialReports.get(error) : undefined;
}

/** Thrown to roll a dry run back. */
class DryRun extends Error {}

/**
 * Runs an import: for real (each batch commits on its own), or, with `dryRun`, inside one
 * transaction rolled back at the end. An error carries the report so far ({@link partialReport}).
 */
export async function runImport(
  db: Db,
  report: ImportReport,
  work: (db: Db) => Promise<void>,
): Promise<ImportReport> {
  const started = performance.now();
  try {
    if (!report.dryRun) {
      await work(db);
    } else {
      try {
        await db.transaction().execute(async (trx) => {
          await work(trx);
          throw new DryRun();
        });
      } catch (error) {
        if (!(error instanceof DryRun)) throw error;
      }
    }
  } catch (error) {
    report.seconds = (performance.now() - started) / 1000;
    if (typeof error === 'object' && error !== null) partialReports.set(error, report);
    throw error;
  }
  // The tables grew by a whole site at once: the planners learn it now, not at the next sweep
  // or autovacuum. Measured: PostgreSQL paged an export of 100,000 fresh comments by a bitmap
  // scan and a sort of the site's rows (115 ms a page, 37 s in all) instead of the index (4 ms
  // a page, 5 s), its statistics still those of an empty table.
  if (!report.dryRun && report.comments.imported > 0) await refreshPlannerStatistics(db);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/**
 * Runs one batch in a transaction; when it fails, the report is put back as it was before it,
 * so the report of a stopped import names only what its committed batches did.
 */
export async function inBatch<T>(
  db: Db,
  report: ImportReport,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  const counts = JSON.stringify([report.stories, report.users, report.comments]);
  const skipped = report.skipped.length;
  const notes = report.notes.length;
  try {
    return await inTransaction(db, work);
  } catch (error) {
    [report.stories, report.users, report.comments] = JSON.parse(counts) as [
      ImportReport['stories'],
      ImportReport['users'],
      ImportReport['comments'],
    ];
    report.skipped.length = skipped;
    report.notes.length = notes;
    throw error;
  }
}

/** Where a thread's URL lands in the site: its story URL, or why it cannot. */
export interface SiteTarget {
  storyUrl(url: string): { url: string } | { reason: string };
}

/** The site's permitted origins and the origin rewrites; NOT_FOUND for an unknown site. */
export async function siteTarget(
  db: Db,
  siteId: string,
  rewriteOrigins: ReadonlyMap<string, string> = new Map(),
): Promise<SiteTarget> {
  const site = await db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
  if (site === undefined) throw new ParleyError('NOT_FOUND', `There is no site ${siteId}.`);
  const origins = new Set(parseJson<string[]>(site.allowed_origins, []));
  return {
    storyUrl(text) {
      let url: URL;
      try {
        url = canonicalStoryUrl(text);
      } catch {
        return { reason: `${JSON.stringify(text)} is not an http(s) URL` };
      }
      const moved = rewriteOrigins.get(url.origin);
      if (moved !== undefined) url = new URL(`${url.pathname}${url.search}`, moved);
      if (!origins.has(url.origin)) {
        return {
          reason: `${url.origin} is not a permitted origin of the site (rewrite it with --rewrite-origin OLD=NEW, or add it to the site)`,
        };
      }
      return { url: url.toString() };
    },
  };
}

/**
 * A source time as a stored one (ISO, UTC), or null when it is not one: ISO 8601 text (a date,
 * then optionally a time and a zone; none is UTC), not after `now` by more than a day.
 */
export function parseTime(value: string, now: Date = new Date()): string | null {
  const text = value.trim();
  if (!/^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(text)) {
    return null;
  }
  // A time without a zone is UTC (Disqus's documented form has none), not this machine's zone.
  const zoned = /[T ]\d\d:\d\d/.test(text) && !/(Z|[+-]\d\d:?\d\d)$/.test(text) ? `${text}Z` : text;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  if (Number.isNaN(ms) || ms > now.getTime() + 86_400_000) return null;
  return new Date(ms).toISOString();
}

/** `base` as it is, or with `_n` (n > 1) and cut to fit 30 characters. */
function withSuffix(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = `_${n}`;
  return `${base.slice(0, 30 - suffix.length)}${suffix}`;
}

/** A username from a display name: letters, digits, `_` and `.`, 3 to 30 of them. */
export function usernameBase(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_.]+/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[_.]+|[_.]+$/g, '')
    .slice(0, 30);
  const padded = cleaned.length >= 3 ? cleaned : `${cleaned || 'reader'}_imported`.slice(0, 30);
  try {
    return validateUsername(padded);
  } catch {
    return 'reader';
  }
}

/**
 * A free username for each of `names`, in order: its base (by default the name made valid,
 * {@link usernameBase}), else the base with `_2` … `_5`, looked up for the whole list in two
 * queries (by key, by look-alike skeleton); a name whose five are all taken goes on alone with
 * more numbers, then a random end. `taken` holds the names given earlier in the import (not yet
 * visible to a query in another batch's rolled-back dry run) and gets these.
 */
export async function uniqueUsernames(
  db: Db,
  names: readonly string[],
  taken: Set<string>,
  baseOf: (name: string) => string = usernameBase,
): Promise<string[]> {
  const bases = names.map(baseOf);
  const candidates = bases.map((base) => [1, 2, 3, 4, 5].map((n) => withSuffix(base, n)));
  const all = candidates.flat();
  const stored = new Set<string>();
  for (let at = 0; at < all.length; at += IMPORT_BATCH) {
    const chunk = all.slice(at, at + IMPORT_BATCH);
    const byKey = await db
      .selectFrom('users')
      .select('username_key')
      .where('username_key', 'in', chunk.map(uniqueKey))
      .execute();
    for (const row of byKey) stored.add(row.username_key);
    const bySkeleton = await db
      .selectFrom('users')
      .select('username_skeleton')
      .where('username_skeleton', 'in', chunk.map(usernameSkeleton))
      .execute();
    for (const row of bySkeleton) {
      if (row.username_skeleton !== null) stored.add(`~${row.username_skeleton}`);
    }
  }
  const free = (candidate: string) => {
    const key = uniqueKey(candidate);
    const skeleton = `~${usernameSkeleton(candidate)}`;
    return !stored.has(key) && !stored.has(skeleton) && !taken.has(key) && !taken.has(skeleton);
  };
  const chosen: string[] = [];
  for (const [index, list] of candidates.entries()) {
    let username = list.find(free);
    if (username === undefined) {
      const base = bases[index] ?? 'reader';
      for (let n = 6; n <= 50 && username === undefined; n++) {
        const candidate = withSuffix(base, n);
        if (free(candidate) && (await isUsernameFree(db, candidate))) username = candidate;
      }
      username ??= `${base.slice(0, 21)}_${crypto.randomUUID().slice(0, 8)}`;
    }
    taken.add(uniqueKey(username));
    taken.add(`~${usernameSkeleton(username)}`);
    chosen.push(username);
  }
  return chosen;
}

/** An account here with an address an import meets. */
export interface AccountByAddress {
  id: string;
  /**
   * Whether an import may attach a source's person to it: not an SSO reader's (their host signs
   * them in) and not erased. Either way, the address is taken.
   */
  usable: boolean;
}

/** The accounts here with these address keys (`uniqueKey` of the address). */
export async function accountsByAddress(
  db: Db,
  keys: readonly string[],
): Promise<Map<string, AccountByAddress>> {
  const accounts = new Map<string, AccountByAddress>();
  for (const chunk of chunks(keys, IMPORT_BATCH)) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'email_key', 'sso_site_id', 'deleted_at'])
      .where('email_key', 'in', chunk)
      .execute();
    for (const row of rows) {
      accounts.set(row.email_key, {
        id: row.id,
        usable: row.sso_site_id === null && row.deleted_at === null,
      });
    }
  }
  return accounts;
}

/** Adds each parent's new visible replies, a hundred parents a statement, in id order. */
export async function addReplyCounts(db: Db, replies: ReadonlyMap<string, number>): Promise<void> {
  const parents = [...replies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (let at = 0; at < parents.length; at += 100) {
    const chunk = parents.slice(at, at + 100);
    // Numbers this code counted, never text from the file.
    const added = sql.join(
      chunk.map(([id, delta]) => sql`when ${id} then ${sql.lit(Math.trunc(delta))}`),
      sql` `,
    );
    await db
      .updateTable('comments')
      .set({ reply_count: sql<number>`reply_count + (case id ${added} end)` })
      .where(
        'id',
        'in',
        chunk.map(([id]) => id),
      )
      .execute();
  }
}

/**
 * A string of the file as a string of its own, for the maps that live through an import: a
 * parser's strings may be slices of the text it read, and a slice kept keeps all of that text
 * (measured: 100 MB more at 100,000 comments of Parley's export).
 */
export function own(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Rows in chunks of `size`: within both engines' bound-parameter limits. */
export function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
}

/** A comment as {@link ParentsFirst} orders it. */
export interface Threaded {
  id: string;
  parentId: string | null;
}

/**
 * Hands comments on parents first: a reply read before its parent waits for it (files promise
 * parents first and do not always keep it; Parley's own export is in id order). When a comment
 * is skipped, its waiting replies go to the top of their thread; at the end, the first of each
 * chain whose parent never came goes to the top, the rest under it as they were.
 */
export class ParentsFirst<Comment extends Threaded> {
  /** Ids handed on, and those skipped with why. */
  private readonly accepted = new Set<string>();
  private readonly skipped = new Map<string, string>();
  private readonly waiting = new Map<string, Comment[]>();
  private readonly waitingIds = new Set<string>();

  /**
   * @param place takes each comment, in an order where a parent comes before its replies.
   * @param moved is told of a reply put at the top of its thread, and why.
   */
  constructor(
    private readonly place: (comment: Comment) => Promise<void>,
    private readonly moved: (comment: Comment, why: string) => void,
  ) {}

  /** A comment whose thread is settled: handed on now, or when its parent is. */
  async take(comment: Comment): Promise<void> {
    const { parentId } = comment;
    if (parentId === null || this.accepted.has(parentId)) return this.hand(comment);
    const skippedBecause = this.skipped.get(parentId);
    if (skippedBecause !== undefined) {
      return this.toTop(comment, `its parent ${parentId} was skipped (${skippedBecause})`);
    }
    const list = this.waiting.get(parentId) ?? [];
    list.push(comment);
    this.waiting.set(parentId, list);
    this.waitingIds.add(comment.id);
  }

  /** A comment that will not be imported: its waiting replies go to the top of their thread. */
  async skip(id: string, reason: string): Promise<void> {
    this.skipped.set(id, reason);
    const orphans = this.waiting.get(id) ?? [];
    this.waiting.delete(id);
    for (const orphan of orphans) {
      this.waitingIds.delete(orphan.id);
      await this.toTop(orphan, `its parent ${id} was skipped (${reason})`);
    }
  }

  /**
   * The replies still waiting at the end of the file: under their parent when `isHere` finds it
   * (written by an earlier run), else the first of each chain at the top of its thread.
   */
  async finish(isHere: (parentId: string) => Promise<boolean> = async () => false): Promise<void> {
    for (const parentId of [...this.waiting.keys()]) {
      if (this.waitingIds.has(parentId) || !this.waiting.has(parentId)) continue;
      const list = this.waiting.get(parentId) ?? [];
      this.waiting.delete(parentId);
      const here = await isHere(parentId);
      for (const orphan of list) {
        this.waitingIds.delete(orphan.id);
        if (here) await this.hand(orphan);
        else await this.toTop(orphan, `its parent ${parentId} is not in the file`);
      }
    }
    // Left: loops of parents (a file where a comment answers its own reply).
    for (const [parentId, list] of [...this.waiting]) {
      this.waiting.delete(parentId);
      for (const orphan of list) {
        this.waitingIds.delete(orphan.id);
        if (!this.accepted.has(orphan.id)) await this.toTop(orphan, 'its parents loop back to it');
      }
    }
  }

  private async toTop(comment: Comment, why: string): Promise<void> {
    this.moved(comment, why);
    await this.hand({ ...comment, parentId: null });
  }

  // Hands on a comment, then the replies that waited for it, and theirs.
  private async hand(comment: Comment): Promise<void> {
    const queue = [comment];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      this.waitingIds.delete(next.id);
      this.accepted.add(next.id);
      await this.place(next);
      for (const reply of this.waiting.get(next.id) ?? []) queue.push(reply);
      this.waiting.delete(next.id);
    }
  }
}
