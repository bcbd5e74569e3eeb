import type { ParleyYoga } from '../../runtime/createYogaApp';
import type { GraphQLAnswer } from './useApi';

/**
 * Sends `query` with `bytes` as its `file` variable (or `input.file` with `inInput`) by the
 * GraphQL multipart request spec (operations, map, 0), as a browser's upload does. The file claims to be `image/png` whatever it
 * is: only its bytes may decide. Signed out (no `token`), it carries the preflight header a
 * non-browser client needs for a multipart POST.
 */
export async function postUpload(
  yoga: ParleyYoga,
  query: string,
  variables: Record<string, unknown>,
  file: { bytes: Uint8Array; name: string; inInput?: boolean },
  token?: string,
): Promise<GraphQLAnswer> {
  const form = new FormData();
  const sent = file.inInput
    ? { ...variables, input: { ...(variables.input as object), file: null } }
    : { ...variables, file: null };
  form.set('operations', JSON.stringify({ query, variables: sent }));
  form.set(
    'map',
    JSON.stringify({ 0: [file.inInput ? 'variables.input.file' : 'variables.file'] }),
  );
  form.set('0', new File([new Uint8Array(file.bytes)], file.name, { type: 'image/png' }));
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers:
      token === undefined
        ? { 'graphql-require-preflight': '1' }
        : { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await response.json()) as GraphQLAnswer;
}
