/**
 * Remark42's backup (its "native" export, `remark42 backup` or the admin export): JSON values one
 * per line, the first the site's metadata (`{"version":1,"users":[…],"posts":[…]}`), then one
 * comment per line, post after post.
 *
 * - A thread is a `locator.url`, titled by its comments' `title`; posts listed `read_only` are
 *   imported closed.
 * - Bodies: the Markdown the author wrote (`orig`) when the backup keeps it, else the HTML
 *   (`text`). A deleted comment (`delete`) keeps its place as a tombstone, as a comment deleted
 *   here does.
 * - Votes come when the backup names the voters (`votes`, voter → up or down, in older
 *   backups): each voter is a person as authors are. Newer backups keep only a `score`, which
 *   names nobody: not imported (Parley counts votes by who cast them).
 * - Authors: Remark42's user id (`github_…`, `anonymous_…`), with the email the metadata gives
 *   for that id (confirmed by Remark42 for its notifications), if any.
 * - Every field is checked: a line whose id, URL or text is not text is skipped with its number.
 * - A line that is not JSON stops the import with its line number.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ParleyError } from '../../ParleyError';
import type { SourceItem } from '../importSite';
import { sourceEmail } from '../importSite';

interface Metadata {
  version?: unknown;
  users?: { id?: unknown; details?: { email?: unknown } }[];
  posts?: { url?: unknown; read_only?: unknown }[];
}

/** A comment line as Remark42 writes it; every field checked before use (a file is input). */
interface Remark42Comment {
  id?: unknown;
  pid?: unknown;
  text?: unknown;
  orig?: unknown;
  user?: { id?: unknown; name?: unknown };
  locator?: { url?: unknown };
  votes?: unknown;
  time?: unknown;
  delete?: unknown;
  title?: unknown;
}

/** A field that should be text: itself, or '' when it is anything else. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The items of a Remark42 backup read from `input`. */
export async function* readRemark42(
  input: AsyncIterable<string | Buffer>,
): AsyncGenerator<SourceItem> {
  const lines = createInterface({ input: Readable.from(input), crlfDelay: Infinity });
  const emails = new Map<string, string>();
  const readOnly = new Set<string>();
  const threads = new Set<string>();
  let lineNumber = 0;
  let metadataSeen = false;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new ParleyError(
        'INVALID_INPUT',
        `Line ${lineNumber} is not JSON (${(error as Error).message}).`,
        { field: 'file' },
      );
    }
    if (!metadataSeen) {
      const metadata = value as Metadata;
      if (typeof value !== 'object' || value === null || !('version' in value)) {
        throw new ParleyError(
          'INVALID_INPUT',
          'This is not a Remark42 backup: its first line is not the metadata ({"version":1,…}).',
          { field: 'file' },
        );
      }
      metadataSeen = true;
      for (const user of Array.isArray(metadata.users) ? metadata.users : []) {
        const email = sourceEmail(user?.details?.email);
        if (typeof user?.id === 'string' && email) emails.set(user.id, email);
      }
      for (const post of Array.isArray(metadata.posts) ? metadata.posts : []) {
        if (typeof post?.url === 'string' && post.read_only === true) readOnly.add(post.url);
      }
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield {
        kind: 'skip',
        what: 'comment',
        id: '',
        line: lineNumber,
        reason: 'it is not an object',
      };
      continue;
    }
    const comment = value as Remark42Comment;
    const url = text(comment.locator?.url);
    const id = text(comment.id);
    const problem =
      id === ''
        ? 'it has no id'
        : url === ''
          ? 'it has no locator.url'
          : typeof comment.text !== 'string' &&
              typeof comment.orig !== 'string' &&
              comment.delete !== true
            ? 'its text is not text'
            : undefined;
    if (problem !== undefined) {
      yield { kind: 'skip', what: 'comment', id, line: lineNumber, reason: problem };
      continue;
    }
    if (!threads.has(url)) {
      threads.add(url);
      yield {
        kind: 'thread',
        id: url,
        url,
        title: text(comment.title),
        createdAt: null,
        closed: readOnly.has(url),
        line: lineNumber,
      };
    }
    const person = (userId: string, name: string) => {
      const email = emails.get(userId) ?? null;
      return {
        id: userId === '' ? null : userId,
        name: name || userId,
        email,
        vouched: email !== null,
      };
    };
    const votes =
      typeof comment.votes === 'object' && comment.votes !== null
        ? Object.entries(comment.votes).flatMap(([voter, up]) =>
            voter === '' || typeof up !== 'boolean'
              ? []
              : [{ voter: person(voter, voter), value: up ? (1 as const) : (-1 as const) }],
          )
        : [];
    yield {
      kind: 'comment',
      id,
      threadId: url,
      parentId: text(comment.pid) || null,
      author: person(text(comment.user?.id), text(comment.user?.name)),
      html: text(comment.text),
      markdown: text(comment.orig) || null,
      createdAt: text(comment.time),
      status: 'NONE',
      erased: comment.delete === true,
      votes,
      line: lineNumber,
    };
  }
  if (!metadataSeen) {
    throw new ParleyError('INVALID_INPUT', 'This is not a Remark42 backup: the file is empty.', {
      field: 'file',
    });
  }
}
