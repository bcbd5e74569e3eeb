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
 * - Votes are counts: `votes` (older backups: voter → up or down) when present, else the score
 *   (up when above zero, down below). The voters are not accounts here.
 * - Authors: Remark42's user id (`github_…`, `anonymous_…`), with the email the metadata gives
 *   for that id, if any.
 * - A line that is not JSON stops the import with its line number.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ParleyError } from '../../ParleyError';
import type { SourceItem } from '../importSite';
import { sourceEmail } from '../importSite';

interface Metadata {
  version?: number;
  users?: { id?: string; details?: { email?: string } }[];
  posts?: { url?: string; read_only?: boolean }[];
}

interface Remark42Comment {
  id?: string;
  pid?: string;
  text?: string;
  orig?: string;
  user?: { id?: string; name?: string };
  locator?: { url?: string };
  score?: number;
  votes?: Record<string, boolean>;
  time?: string;
  delete?: boolean;
  title?: string;
}

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
      for (const user of metadata.users ?? []) {
        const email = sourceEmail(user.details?.email ?? '');
        if (user.id && email) emails.set(user.id, email);
      }
      for (const post of metadata.posts ?? []) {
        if (post.url && post.read_only) readOnly.add(post.url);
      }
      continue;
    }
    const comment = value as Remark42Comment;
    const url = comment.locator?.url ?? '';
    const id = comment.id ?? '';
    if (id === '' || url === '') {
      yield {
        kind: 'skip',
        what: 'comment',
        id,
        line: lineNumber,
        reason: id === '' ? 'it has no id' : 'it has no locator.url',
      };
      continue;
    }
    if (!threads.has(url)) {
      threads.add(url);
      yield {
        kind: 'thread',
        id: url,
        url,
        title: comment.title ?? '',
        createdAt: null,
        closed: readOnly.has(url),
        line: lineNumber,
      };
    }
    const votes = Object.values(comment.votes ?? {});
    const score = Math.trunc(comment.score ?? 0);
    const userId = comment.user?.id ?? '';
    yield {
      kind: 'comment',
      id,
      threadId: url,
      parentId: comment.pid || null,
      author: {
        id: userId === '' ? null : userId,
        name: comment.user?.name ?? userId,
        email: emails.get(userId) ?? null,
      },
      html: comment.text ?? '',
      markdown: comment.orig || null,
      createdAt: comment.time ?? '',
      status: 'NONE',
      erased: comment.delete === true,
      up: votes.length > 0 ? votes.filter(Boolean).length : Math.max(0, score),
      down: votes.length > 0 ? votes.filter((vote) => !vote).length : Math.max(0, -score),
      line: lineNumber,
    };
  }
  if (!metadataSeen) {
    throw new ParleyError('INVALID_INPUT', 'This is not a Remark42 backup: the file is empty.', {
      field: 'file',
    });
  }
}
