import type { FieldProblem } from './validation';

/**
 * What is wrong with a comment's body, or undefined: blank after trimming, or longer than
 * `maxLength` characters (the organization's setting), counted after trimming. A plain function,
 * not a valibot rule: the stream's first render checks it, and every byte there counts (this
 * module imports no validation library).
 */
export function commentBodyProblem(
  body: string,
  maxLength: number,
): Extract<FieldProblem, 'COMMENT_EMPTY' | 'COMMENT_TOO_LONG'> | undefined {
  const trimmed = body.trim();
  if (trimmed === '') return 'COMMENT_EMPTY';
  // Characters as people count them (code points), as characterCount does.
  return [...trimmed].length > maxLength ? 'COMMENT_TOO_LONG' : undefined;
}
