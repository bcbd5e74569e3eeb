/**
 * Runs one trusted document on the Parley server at `rootURL` (count.js, recent.js: scripts that
 * carry no GraphQL code send the id `npm run codegen` checks) and resolves its `field` of `data`.
 * Rejects with the server's error code, or the HTTP status when there is none.
 */
export async function queryTrusted<T>(
  rootURL: string,
  documentId: string,
  variables: Record<string, unknown>,
  field: string,
): Promise<T> {
  const response = await fetch(`${rootURL}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ extensions: { persistedQuery: { documentId } }, variables }),
  });
  const { data, errors } = await response.json();
  const value: T | undefined = data?.[field];
  if (value == null) throw errors?.[0]?.extensions?.code ?? response.status;
  return value;
}
