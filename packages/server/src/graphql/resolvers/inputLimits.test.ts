import { testBox } from '../../db/testFixtures';
import { addSsoKey } from '../../db/store/sites';
import { testDialects } from '../../db/testDatabases';
import { signHostToken } from '../testing/signHostToken';
import { SITE_ORIGIN, useApi } from '../testing/useApi';

// A NUL character in a comment and an idempotency key over ~2.7 KB were INTERNAL on
// PostgreSQL (it cannot store NUL in text, nor index such a long value) while SQLite took them.
// Both databases must answer the same coded error, and store nothing.

const STORY = `query ($url: String!) { story(url: $url) { id } }`;
const POST = `mutation ($input: CreateCommentInput!) { createComment(input: $input) { comment { id } } }`;

describe.each(testDialects())('input limits on %s', (dialect) => {
  const api = useApi(dialect);

  async function setUp() {
    await api.install();
    const { token } = await api.signUp('writer');
    const story = await api.ok(STORY, { url: `${SITE_ORIGIN}/a` });
    return { token, storyId: story.story.id as string };
  }
  const comments = async () =>
    Number(
      (
        await api.db
          .selectFrom('comments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a NUL character in a variable or in the document, naming the field', async () => {
    const { token, storyId } = await setUp();
    const inVariable = await api.request(
      POST,
      { input: { storyId, body: 'before\u0000after' } },
      token,
    );
    expect(inVariable.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'input.body',
    });
    const inline = await api.request(
      `mutation { createComment(input: { storyId: "${storyId}", body: "a\\u0000b" }) { comment { id } } }`,
      {},
      token,
    );
    expect(inline.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    const username = await api.request(
      `mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`,
      { input: { email: 'n@example.com', username: 'nul\u0000l', password: 'long enough' } },
    );
    expect(username.errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
    expect(await api.db.selectFrom('pending_sign_ups').selectAll().execute()).toEqual([]);
    expect(await comments()).toBe(0);
  });

  it('refuses an idempotency key over the limit, from the input or the header', async () => {
    const { token, storyId } = await setUp();
    const long = 'k'.repeat(3000);
    const inInput = await api.request(
      POST,
      { input: { storyId, body: 'Hello', clientMutationId: long } },
      token,
    );
    expect(inInput.errors?.[0]?.extensions).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'clientMutationId',
    });
    const response = await api.yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': long,
      },
      body: JSON.stringify({ query: POST, variables: { input: { storyId, body: 'Hello' } } }),
    });
    const inHeader = (await response.json()) as {
      errors?: { extensions: Record<string, unknown> }[];
    };
    expect(inHeader.errors?.[0]?.extensions.code).toBe('INVALID_INPUT');
    expect(await comments()).toBe(0);
    // A normal key still works.
    await api.ok(
      POST,
      { input: { storyId, body: 'Hello', clientMutationId: 'k'.repeat(36) } },
      token,
    );
  });

  it('refuses a story URL or an SSO user id too long to index', async () => {
    const { siteId } = await api.install();
    const longUrl = await api.request(STORY, { url: `${SITE_ORIGIN}/${'p'.repeat(3000)}` });
    expect(longUrl.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'url' });

    const key = await addSsoKey(api.db, siteId, testBox);
    const token = await signHostToken(key.secret, {
      id: 'i'.repeat(3000),
      email: 'long@host.example',
      username: 'long',
    });
    const sso = await api.request(
      `mutation ($input: SsoSignInInput!) { signInWithSso(input: $input) { token } }`,
      { input: { token } },
    );
    expect(sso.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field: 'token' });
  });
});
