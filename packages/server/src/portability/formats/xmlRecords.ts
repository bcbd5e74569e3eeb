/**
 * Streams an XML file as its records: each element that `isRecord` picks (a Disqus `<post>`, a
 * WordPress `<item>`) comes out whole, as a small tree, once its closing tag is read; nothing
 * outside the records is kept. Memory is one chunk of input plus the record being read.
 *
 * saxes parses (a maintained, conformant, streaming parser). Names are local names without
 * their namespace prefix (`dsq:id` → `id`, `wp:comment` → `comment`): the formats' prefixes are
 * fixed in practice, but their namespace URIs change with versions (WordPress's `export/1.0/` to
 * `1.2/`). A file that is not well-formed XML throws INVALID_INPUT (field `file`) with its line and column.
 */
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import type { SaxesTagNS } from 'saxes';
import { ParleyError } from '../../ParleyError';

/**
 * The most text one record may hold: a WordPress post with thousands of comments is one record,
 * and fits many times over; a file that would take the memory with one element stops instead.
 */
export const MAX_RECORD_CHARS = 32_000_000;

/** An element of a record: its local name, attributes by local name, text and children. */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  /** The element's own text and CDATA, children's excluded. */
  text: string;
  children: XmlNode[];
  /** The line where the element opens. */
  line: number;
}

/** The first child named `name`, if any. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((each) => each.name === name);
}

/** The trimmed text of the child at `path` (names, one per level); '' when absent. */
export function textAt(node: XmlNode | undefined, ...path: string[]): string {
  let at = node;
  for (const name of path) at = child(at, name);
  return at?.text.trim() ?? '';
}

/**
 * The records of `input`, in document order. `isRecord` is asked at each opening tag with the
 * local names of the open elements above it, outermost first.
 */
export async function* xmlRecords(
  input: AsyncIterable<string | Buffer>,
  isRecord: (name: string, ancestors: readonly string[]) => boolean,
  { maxRecordChars = MAX_RECORD_CHARS }: { maxRecordChars?: number } = {},
): AsyncGenerator<XmlNode> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const open: string[] = [];
  // The record being built, innermost element last; empty outside records.
  const building: XmlNode[] = [];
  const done: XmlNode[] = [];
  let failure: Error | undefined;
  let tooBig: ParleyError | undefined;

  parser.on('error', (error) => {
    // saxes's messages start with "line:column: "; the first one is the one that matters.
    failure ??= error;
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const inRecord = building.length > 0;
    if (inRecord || isRecord(tag.local, open)) {
      const attributes: Record<string, string> = {};
      for (const attribute of Object.values(tag.attributes)) {
        attributes[attribute.local] = attribute.value;
      }
      const node: XmlNode = {
        name: tag.local,
        attributes,
        text: '',
        children: [],
        line: parser.line,
      };
      if (building.length === 0) {
        recordChars = 0;
        recordLine = parser.line;
      }
      building.at(-1)?.children.push(node);
      building.push(node);
    }
    open.push(tag.local);
  });
  // A record's text, counted: one element of a hostile file cannot fill the memory.
  let recordChars = 0;
  let recordLine = 0;
  const addText = (text: string) => {
    const node = building.at(-1);
    if (node === undefined) return;
    recordChars += text.length;
    if (recordChars > maxRecordChars) {
      tooBig ??= new ParleyError(
        'INVALID_INPUT',
        `The element at line ${recordLine} holds more than ${maxRecordChars.toLocaleString('en-US')} characters of text: more than one record of this format can be.`,
        { field: 'file' },
      );
    } else {
      node.text += text;
    }
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    open.pop();
    const node = building.pop();
    if (node !== undefined && building.length === 0) done.push(node);
  });

  const check = () => {
    if (tooBig !== undefined) throw tooBig;
    if (failure === undefined) return;
    throw new ParleyError(
      'INVALID_INPUT',
      `The file is not well-formed XML at line ${failure.message.replace(/^(\d+):(\d+): /, '$1, column $2: ')}`,
      { field: 'file' },
    );
  };
  // A chunk may end inside a character of several bytes: the decoder keeps the start for the next.
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input) {
    parser.write(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    check();
    yield* done.splice(0);
  }
  parser.write(decoder.end());
  parser.close();
  check();
  yield* done.splice(0);
}

/** INVALID_INPUT for a file of another kind: "This is not a Disqus export: …". */
export function notThe(what: string, expected: string, root: string | undefined): ParleyError {
  return new ParleyError(
    'INVALID_INPUT',
    root === undefined
      ? `This is not a ${what}: the file has no XML element.`
      : `This is not a ${what}: it starts with <${root}>, where ${expected} was expected.`,
    { field: 'file' },
  );
}
