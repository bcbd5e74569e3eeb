/**
 * Reads a big JSON document piece by piece (stream-json): the elements of one of its top-level
 * arrays, one at a time, or its first top-level scalars. Memory is one element, never the file.
 */
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import StreamJson from 'stream-json';
import Pick from 'stream-json/filters/Pick.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import StreamValues from 'stream-json/streamers/StreamValues.js';
import { ParleyError } from '../../ParleyError';

/** The values `stages` yield from `source`, a parse error thrown as INVALID_INPUT (field `file`). */
async function* values<T>(source: Readable, filter: string | RegExp, elements: boolean) {
  const out = elements ? StreamArray.streamArray() : StreamValues.streamValues();
  pipeline(source, StreamJson.parser(), Pick.pick({ filter }), out, () => {});
  try {
    for await (const { value } of out as AsyncIterable<{ value: T }>) yield value;
  } catch (error) {
    throw new ParleyError(
      'INVALID_INPUT',
      `The file is not JSON as Parley exports it: ${(error as Error).message}`,
      { field: 'file' },
    );
  } finally {
    source.destroy();
  }
}

/** The elements of the top-level array `key` of the document `open()` reads (none if absent). */
export function arrayElements<T>(open: () => Readable, key: string): AsyncGenerator<T> {
  return values<T>(open(), key, true);
}

/** The top-level values whose keys `filter` matches, in the document's order. */
export function topValues(open: () => Readable, filter: RegExp): AsyncGenerator<unknown> {
  return values<unknown>(open(), filter, false);
}
