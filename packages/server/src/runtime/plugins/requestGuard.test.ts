import { findStoryByUrl } from '../../db/store/stories';
import { testDialects } from '../../db/testDatabases';
import { PASSWORD, SITE_ORIGIN, useApi } from '../../graphql/testing/useApi';

// Unguarded, a hostile page's form posted `signUp` as application/x-www-form-urlencoded (no
// CORS preflight) and created an account; GET queries created stories.

const SIGN_UP = `mutation { signUp(input: { email: "victim@example.com", username: "victim", password: "${PASSWORD}" }) { email } }`;

describe.each(testDialects())('cross-site requests on %s', (dialect) => {
  const api = useApi(dialect);

  /** Whether the forged sign-up ran: its pending sign-up (and code) exists. */
  const signedUp = async () =>
    (await api.db
      .selectFrom('pending_sign_ups')
      .select('email')
      .where('email_key', '=', 'victim@example.com')
      .executeTakeFirst()) !== undefined;

  const post = (contentType: string, body: BodyInit, headers: Record<string, string> = {}) =>
    api.yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': contentType, origin: 'https://hostile.example', ...headers },
      body,
    });

  it.each([
    ['a form', 'application/x-www-form-urlencoded', new URLSearchParams({ query: SIGN_UP })],
    ['text/plain', 'text/plain', JSON.stringify({ query: SIGN_UP })],
    ['no content type', '', JSON.stringify({ query: SIGN_UP })],
  ])('refuses %s with 415 UNSUPPORTED_MEDIA_TYPE and runs nothing', async (_name, type, body) => {
    await api.install();
    const response = await post(type, body);
    expect(response.status).toBe(415);
    const answer = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(answer.errors[0]?.extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await signedUp()).toBe(false);
  });

  it('refuses a multipart form without a header that forces a preflight, and runs one with it', async () => {
    await api.install();
    const form = () => {
      const data = new FormData();
      data.set('operations', JSON.stringify({ query: SIGN_UP }));
      data.set('map', '{}');
      return data;
    };
    // fetch sets the multipart boundary itself when the body is FormData.
    const bare = await api.yoga.fetch('http://test/graphql', { method: 'POST', body: form() });
    expect(bare.status).toBe(415);
    expect(await signedUp()).toBe(false);

    const withHeader = await api.yoga.fetch('http://test/graphql', {
      method: 'POST',
      body: form(),
      headers: { 'graphql-require-preflight': '1' },
    });
    expect(withHeader.status).toBe(200);
    // The resolver ran: it asks this new sign-up for its proof of work (auth/botCheck.ts).
    const ran = (await withHeader.json()) as { errors: { extensions: { code: string } }[] };
    expect(ran.errors[0]?.extensions.code).toBe('CHALLENGE_REQUIRED');
  });

  it('answers GET queries without creating a story; a POST creates it', async () => {
    await api.install();
    const url = `${SITE_ORIGIN}/never-seen`;
    const query = `{ story(url: "${url}") { id } }`;
    const response = await api.yoga.fetch(
      `http://test/graphql?query=${encodeURIComponent(query)}`,
      { method: 'GET', headers: { accept: 'application/json' } },
    );
    expect(await response.json()).toEqual({ data: { story: null } });
    expect(await findStoryByUrl(api.db, url)).toBeUndefined();

    const created = await api.ok(query);
    expect(created.story.id).toEqual(expect.any(String));
    // Once it exists, GET reads it like any other.
    const again = await api.yoga.fetch(`http://test/graphql?query=${encodeURIComponent(query)}`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(await again.json()).toEqual({ data: { story: { id: created.story.id } } });
  });

  it('lets a GET from a page of this server (the stream’s frame) create the story', async () => {
    await api.install();
    const url = `${SITE_ORIGIN}/first-visit`;
    const get = (site: string) =>
      api.yoga.fetch(
        `http://test/graphql?query=${encodeURIComponent(`{ story(url: "${url}") { url } }`)}`,
        { method: 'GET', headers: { accept: 'application/json', 'sec-fetch-site': site } },
      );
    // A link or an image on another site: read-only.
    expect(await (await get('cross-site')).json()).toEqual({ data: { story: null } });
    expect(await findStoryByUrl(api.db, url)).toBeUndefined();
    // The browser marks the frame's own request same-origin, which no page can forge.
    expect(await (await get('same-origin')).json()).toEqual({ data: { story: { url } } });
    expect(await findStoryByUrl(api.db, url)).toBeDefined();
  });

  it('refuses mutations over GET', async () => {
    await api.install();
    const response = await api.yoga.fetch(
      `http://test/graphql?query=${encodeURIComponent(SIGN_UP)}`,
      { method: 'GET', headers: { accept: 'application/json' } },
    );
    expect(response.status).toBe(405);
    expect(await signedUp()).toBe(false);
  });
});
