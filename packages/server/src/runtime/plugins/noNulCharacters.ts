import { BREAK, visit } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ParleyError } from '../../ParleyError';

/**
 * PostgreSQL cannot store the NUL character (U+0000) in text; SQLite can. Left to the database,
 * a comment containing one was `INTERNAL` on PostgreSQL and stored on SQLite. No
 * Parley text needs it, so every operation is checked once, before execution and on both
 * databases alike: any string in the variables or written in the document refuses the whole
 * operation with `INVALID_INPUT`, naming where the character is.
 */

/** The character no text may contain. */
const NUL = '\u0000';

/** Path of the first string containing NUL in `value` (`input.body`, `urls.2`), if any. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findNul(key, path) ?? findNul(item, path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether a string literal in the document (an inline argument) contains NUL. */
function documentHasNul(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    StringValue(node) {
      if (!node.value.includes(NUL)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

function refusal(field: string): ParleyError {
  return new ParleyError(
    'INVALID_INPUT',
    'Text cannot contain the NUL character (U+0000); remove it and try again.',
    field === '' ? {} : { field },
  );
}

/** The envelop plugin: refuses operations whose input contains NUL, over HTTP and WebSocket. */
export function useNoNulCharacters(): Plugin {
  const check = (variables: unknown, document: DocumentNode): ParleyError | undefined => {
    const path = findNul(variables);
    if (path !== undefined) return refusal(path);
    return documentHasNul(document) ? refusal('') : undefined;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = check(args.variableValues, args.document);
      if (error !== undefined) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = check(args.variableValues, args.document);
      if (error !== undefined) setResultAndStopExecution({ errors: [error] });
    },
  };
}
