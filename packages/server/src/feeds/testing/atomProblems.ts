/**
 * What an Atom document breaks of RFC 4287's rules, as sentences (none: valid), for tests. XML
 * well-formedness and namespaces come from saxes (a strict, conforming parser); then the RFC's
 * MUSTs for feeds and entries: each element of a feed or entry that must appear exactly once
 * does; ids are absolute IRIs, unique among the entries; dates are RFC 3339; an author on the
 * feed or on every entry; links carry an href; an entry without content has an alternate link;
 * text constructs declare a known type.
 */
import { SaxesParser } from 'saxes';

const ATOM = 'http://www.w3.org/2005/Atom';

interface Node {
  name: string;
  uri: string;
  attributes: Record<string, string>;
  children: Node[];
  text: string;
}

/** RFC 3339 date-time (4.3 "Date Constructs"): with seconds and a time zone. */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function parse(xml: string): Node {
  const parser = new SaxesParser({ xmlns: true });
  const root: Node = { name: '#document', uri: '', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.on('opentag', (tag) => {
    const node: Node = {
      name: tag.local,
      uri: tag.uri,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((a) => [a.local, a.value])),
      children: [],
      text: '',
    };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (text) => (stack.at(-1)!.text += text));
  parser.on('cdata', (text) => (stack.at(-1)!.text += text));
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  return root;
}

function isAbsoluteIri(value: string): boolean {
  try {
    return new URL(value.trim()).protocol.length > 1;
  } catch {
    return false;
  }
}

/** Problems of `xml` as an Atom feed document; empty when it keeps every rule checked. */
export function atomProblems(xml: string): string[] {
  const problems: string[] = [];
  let document: Node;
  try {
    document = parse(xml);
  } catch (error) {
    return [`not well-formed XML: ${(error as Error).message}`];
  }
  const feed = document.children[0];
  if (!feed || feed.name !== 'feed' || feed.uri !== ATOM) return ['the root is not atom:feed'];
  const atom = (node: Node, name: string) =>
    node.children.filter((child) => child.name === name && child.uri === ATOM);
  const once = (node: Node, where: string, name: string) => {
    const found = atom(node, name);
    if (found.length !== 1) problems.push(`${where} has ${found.length} atom:${name} (one needed)`);
    return found[0];
  };
  const text = (node: Node | undefined, where: string) => {
    const type = node?.attributes['type'] ?? 'text';
    if (!['text', 'html', 'xhtml'].includes(type)) problems.push(`${where} has type ${type}`);
  };
  const date = (node: Node | undefined, where: string) => {
    if (node && !RFC3339.test(node.text.trim())) {
      problems.push(`${where} is not an RFC 3339 date: ${node.text}`);
    }
  };
  const links = (node: Node, where: string) => {
    for (const link of atom(node, 'link')) {
      if (!link.attributes['href']) problems.push(`${where} has an atom:link without href`);
    }
  };
  const authors = (node: Node, where: string) => {
    for (const author of atom(node, 'author')) once(author, `${where}'s author`, 'name');
    return atom(node, 'author').length > 0;
  };

  const id = once(feed, 'the feed', 'id');
  if (id && !isAbsoluteIri(id.text)) problems.push(`the feed's id is not an IRI: ${id.text}`);
  text(once(feed, 'the feed', 'title'), 'the feed title');
  date(once(feed, 'the feed', 'updated'), 'the feed updated');
  links(feed, 'the feed');
  const feedAuthor = authors(feed, 'the feed');
  if (!atom(feed, 'link').some((link) => link.attributes['rel'] === 'self')) {
    problems.push('the feed has no self link (RFC 4287 4.1.1 SHOULD; we keep it a rule)');
  }
  const ids = new Set<string>();
  atom(feed, 'entry').forEach((entry, index) => {
    const where = `entry ${index + 1}`;
    const entryId = once(entry, where, 'id');
    if (entryId) {
      if (!isAbsoluteIri(entryId.text)) problems.push(`${where}'s id is not an IRI`);
      if (ids.has(entryId.text)) problems.push(`${where}'s id is not unique`);
      ids.add(entryId.text);
    }
    text(once(entry, where, 'title'), `${where}'s title`);
    date(once(entry, where, 'updated'), `${where}'s updated`);
    for (const published of atom(entry, 'published')) date(published, `${where}'s published`);
    links(entry, where);
    if (!authors(entry, where) && !feedAuthor) problems.push(`${where} has no author`);
    const content = atom(entry, 'content');
    if (content.length > 1) problems.push(`${where} has ${content.length} atom:content`);
    if (content[0]) text(content[0], `${where}'s content`);
    const alternate = atom(entry, 'link').some(
      (l) => (l.attributes['rel'] ?? 'alternate') === 'alternate',
    );
    if (!content.length && !alternate)
      problems.push(`${where} has neither content nor an alternate link`);
  });
  return problems;
}
