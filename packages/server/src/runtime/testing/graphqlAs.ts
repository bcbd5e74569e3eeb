/**
 * A signed-in GraphQL POST to the server at `origin` as the holder of `token`: resolves the data,
 * and rejects with the errors when there are any (a test's setup step that fails says why).
 */
export function graphqlAs(origin: string, token: string) {
  return async <T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<T> => {
    const response = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown };
    if (body.errors !== undefined)
      throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
    return body.data as T;
  };
}
