/**
 * Disqus's XML export (`<disqus>`: categories, then `<thread dsq:id>`s, then `<post dsq:id>`s that
 * name their thread and parent by `dsq:id`), as Disqus documents it and its files look.
 *
 * - A thread's URL is its `<link>`; a deleted thread (`isDeleted`) is skipped with its posts.
 * - A post's body is the HTML of `<message>`; `isSpam` or `isDeleted` → rejected (a moderator
 *   sees it in the Rejected queue; readers do not).
 * - Authors: a Disqus account (`<username>`, not `<isAnonymous>`) by its `<email>`, which may be
 *   an account here; a guest by the address they typed, else their `<name>`.
 * - Disqus exports no votes.
 */
import type { SourceItem } from '../importSite';
import { sourceEmail } from '../importSite';
import { child, notThe, textAt, xmlRecords } from './xmlRecords';
import type { XmlNode } from './xmlRecords';

const isTrue = (text: string) => text.trim().toLowerCase() === 'true';

/** The items of a Disqus export read from `input`. */
export async function* readDisqus(
  input: AsyncIterable<string | Buffer>,
): AsyncGenerator<SourceItem> {
  let root: string | undefined;
  const records = xmlRecords(input, (name, ancestors) => {
    if (ancestors.length === 0) root = name;
    return root === 'disqus' && ancestors.length === 1 && (name === 'thread' || name === 'post');
  });
  for await (const node of records) yield node.name === 'thread' ? thread(node) : post(node);
  if (root !== 'disqus') throw notThe('Disqus export', '<disqus>', root);
}

function thread(node: XmlNode): SourceItem {
  const id = node.attributes.id ?? '';
  if (isTrue(textAt(node, 'isDeleted'))) {
    return { kind: 'skip', what: 'thread', id, line: node.line, reason: 'deleted in Disqus' };
  }
  return {
    kind: 'thread',
    id,
    url: textAt(node, 'link'),
    title: textAt(node, 'title'),
    createdAt: textAt(node, 'createdAt') || null,
    closed: isTrue(textAt(node, 'isClosed')),
    line: node.line,
  };
}

function post(node: XmlNode): SourceItem {
  // A post without its dsq:id (seen in old files) is known by its <id>.
  const id = node.attributes.id || textAt(node, 'id');
  if (id === '') {
    return { kind: 'skip', what: 'comment', id, line: node.line, reason: 'it has no id' };
  }
  const author = child(node, 'author');
  const name = textAt(author, 'name');
  const username = textAt(author, 'username');
  const rejected = isTrue(textAt(node, 'isSpam')) || isTrue(textAt(node, 'isDeleted'));
  return {
    kind: 'comment',
    id,
    threadId: child(node, 'thread')?.attributes.id ?? '',
    parentId: child(node, 'parent')?.attributes.id || null,
    author: {
      id: username === '' ? null : `username:${username}`,
      name: name || username,
      email: sourceEmail(textAt(author, 'email')),
      // A Disqus account's address, not one a guest typed.
      vouched: username !== '' && !isTrue(textAt(author, 'isAnonymous')),
    },
    html: textAt(node, 'message'),
    createdAt: textAt(node, 'createdAt'),
    status: rejected ? 'REJECTED' : 'NONE',
    line: node.line,
  };
}
