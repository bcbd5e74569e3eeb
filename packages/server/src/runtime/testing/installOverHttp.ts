/** What {@link installOverHttp} installs. */
export interface HttpInstallOptions {
  /** The site's URL, also its one permitted origin. */
  site: string;
  /** The admin's password (the admin is `admin`, `admin@example.com`). */
  password: string;
  /** More request headers (e.g. `x-forwarded-for` behind a trusted proxy). */
  headers?: Record<string, string>;
}

/**
 * Installs a running server over HTTP, as the wizard does: organization "Example", its site and
 * the admin. Resolves the admin's token; throws with the errors if the install failed.
 */
export async function installOverHttp(url: string, options: HttpInstallOptions): Promise<string> {
  const { site, password, headers = {} } = options;
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      query: `mutation ($input: InstallInput!) { install(input: $input) { token } }`,
      variables: {
        input: {
          organization: { name: 'Example', contactEmail: 'team@example.com', url: site },
          site: { name: 'Example', url: site, allowedOrigins: [site] },
          admin: { email: 'admin@example.com', username: 'admin', password },
        },
      },
    }),
  });
  const body = (await response.json()) as {
    data?: { install: { token: string } };
    errors?: unknown[];
  };
  if (body.data === undefined || body.errors !== undefined) {
    throw new Error(`install failed: ${JSON.stringify(body.errors)}`);
  }
  return body.data.install.token;
}
