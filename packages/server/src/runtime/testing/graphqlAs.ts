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

/** A GraphQL answer as it came, data and errors: for tests that look at error codes. */
export interface GraphqlAnswer {
  data?: any;
  errors?: { message: string; extensions: Record<string, any> }[];
}

/** A GraphQL POST to the server at `origin`, as `token`'s holder when given; never throws on errors. */
export async function graphqlAnswer(
  origin: string,
  query: string,
  variables: object = {},
  token?: string,
): Promise<GraphqlAnswer> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphqlAnswer;
}

/** The code of an answer's first error. */
export function codeOf(answer: GraphqlAnswer): unknown {
  return answer.errors?.[0]?.extensions['code'];
}
