/**
 * WordPress's export (WXR: RSS 2.0 with the `wp:` namespace of any 1.x version), comments only:
 * each `<item>` that has `<wp:comment>`s is a thread at its `<link>`; posts, pages and their
 * settings are not imported.
 *
 * - Times are the `_gmt` ones (`2010-08-18 15:19:14`, UTC); a draft's `0000-00-00 00:00:00` is none.
 * - `comment_approved`: `1` → published, `0` → pending, `spam`, `trash`, `post-trashed` → rejected.
 * - `comment_type` `comment` (or empty, in older exports) is imported; pingbacks, trackbacks and
 *   plugins' types (WooCommerce's `review`) are skipped, each listed.
 * - Bodies are what WordPress stores: text with some HTML, paragraphs by blank lines (WordPress
 *   adds the `<p>`s when it shows them): the same is done here before the HTML is read.
 * - Authors: a WordPress user (`comment_user_id`) by the address, which may be an account here;
 *   a visitor by the address they typed, else their name.
 * - Posts that are not public (a draft, private, trashed, password-protected) are skipped with
 *   their comments: readers never saw them.
 */
import type { SourceItem } from '../importSite';
import { sourceEmail } from '../importSite';
import { notThe, textAt, xmlRecords } from './xmlRecords';
import type { XmlNode } from './xmlRecords';

/** The items of a WordPress export read from `input`. */
export async function* readWordPress(
  input: AsyncIterable<string | Buffer>,
): AsyncGenerator<SourceItem> {
  let root: string | undefined;
  const records = xmlRecords(input, (name, ancestors) => {
    if (ancestors.length === 0) root = name;
    return (
      root === 'rss' && name === 'item' && ancestors.length === 2 && ancestors[1] === 'channel'
    );
  });
  const posts = new Set<string>();
  for await (const item of records) {
    const comments = item.children.filter((node) => node.name === 'comment');
    if (comments.length === 0) continue;
    const threadId = textAt(item, 'post_id');
    const status = textAt(item, 'status');
    const hidden =
      threadId === ''
        ? 'it has no wp:post_id'
        : posts.has(threadId)
          ? 'the file has this wp:post_id twice'
          : textAt(item, 'post_password') !== ''
            ? 'its post is password-protected in WordPress'
            : PUBLIC_STATUSES.includes(status)
              ? undefined
              : `its post is not public in WordPress (status "${status}")`;
    if (hidden !== undefined) {
      // Not a thread here, nor are its comments (they would be readable where they were not).
      yield { kind: 'skip', what: 'thread', id: threadId, line: item.line, reason: hidden };
      for (const comment of comments) {
        yield {
          kind: 'skip',
          what: 'comment',
          id: textAt(comment, 'comment_id'),
          line: comment.line,
          reason: `its post was skipped (${hidden})`,
        };
      }
      continue;
    }
    posts.add(threadId);
    yield {
      kind: 'thread',
      id: threadId,
      url: textAt(item, 'link'),
      title: textAt(item, 'title'),
      createdAt: gmt(textAt(item, 'post_date_gmt')),
      closed: textAt(item, 'comment_status') === 'closed',
      line: item.line,
    };
    for (const comment of comments) yield toComment(comment, threadId);
  }
  if (root !== 'rss') throw notThe('WordPress export (WXR)', '<rss>', root);
}

/** Posts whose comments readers saw: published, and attachments (which inherit). */
const PUBLIC_STATUSES = ['publish', 'inherit', ''];

const STATUSES: Record<string, 'NONE' | 'PREMOD' | 'REJECTED'> = {
  '1': 'NONE',
  '0': 'PREMOD',
  spam: 'REJECTED',
  trash: 'REJECTED',
  'post-trashed': 'REJECTED',
};

function toComment(node: XmlNode, threadId: string): SourceItem {
  const id = textAt(node, 'comment_id');
  const type = textAt(node, 'comment_type');
  if (type !== '' && type !== 'comment') {
    return {
      kind: 'skip',
      what: 'comment',
      id,
      line: node.line,
      reason: `a ${type}, not a comment`,
    };
  }
  const approved = textAt(node, 'comment_approved');
  const status = STATUSES[approved];
  if (status === undefined) {
    return {
      kind: 'skip',
      what: 'comment',
      id,
      line: node.line,
      reason: `its status "${approved}" is not one WordPress writes`,
    };
  }
  const parent = textAt(node, 'comment_parent');
  const userId = textAt(node, 'comment_user_id');
  return {
    kind: 'comment',
    id,
    threadId,
    parentId: parent === '' || parent === '0' ? null : parent,
    author: {
      id: userId === '' || userId === '0' ? null : `user:${userId}`,
      name: textAt(node, 'comment_author'),
      email: sourceEmail(textAt(node, 'comment_author_email')),
      // A WordPress user's address, not one a visitor typed.
      vouched: userId !== '' && userId !== '0',
    },
    html: paragraphs(textAt(node, 'comment_content')),
    createdAt: gmt(textAt(node, 'comment_date_gmt')) ?? '',
    status,
    line: node.line,
  };
}

/** WordPress's `YYYY-MM-DD HH:MM:SS` in UTC as ISO text; null for none or the zero date. */
function gmt(text: string): string | null {
  if (text === '' || text.startsWith('0000-00-00')) return null;
  return /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
}

/** Text with blank-line paragraphs and single-newline breaks, as WordPress shows it, in HTML. */
function paragraphs(text: string): string {
  if (/<(p|div|ul|ol|blockquote|pre)[\s>]/i.test(text)) return text;
  return text
    .split(/\n\s*\n/)
    .map((block) => `<p>${block.trim().replace(/\n/g, '<br>')}</p>`)
    .join('');
}
