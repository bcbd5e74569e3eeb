import { testDialects } from '../../db/testDatabases';
import { SITE_ORIGIN, PASSWORD, useApi } from '../testing/useApi';

// Look-alike usernames, and bidirectional controls in names and bodies.

const SIGN_UP = `mutation ($input: SignUpInput!) { signUp(input: $input) { email } }`;
const CONFIRM = `mutation ($input: ConfirmSignUpInput!) { confirmSignUp(input: $input) { user { username } } }`;
const RENAME = `mutation ($input: UpdateUsernameInput!) { updateUsername(input: $input) { user { username } } }`;

describe.each(testDialects())('look-alikes on %s', (dialect) => {
  const api = useApi(dialect);

  it('refuses a username that looks like a taken one, at sign-up and on a change', async () => {
    await api.install(); // the admin is "admin"
    await api.ok(SIGN_UP, {
      input: { email: 'mallory@example.com', username: '\u0430dmin', password: PASSWORD },
    });
    const impostor = await api.request(CONFIRM, {
      input: { email: 'mallory@example.com', code: await api.signUpCode('mallory@example.com') },
    });
    expect(impostor.errors?.[0]?.extensions).toMatchObject({
      code: 'USERNAME_TAKEN',
      field: 'username',
    });
    expect(impostor.errors?.[0]?.message).toMatch(/looks like one already taken/);
    const users = await api.db.selectFrom('users').select('email').execute();
    expect(users.map((u) => u.email)).toEqual(['admin@example.com']);

    const reader = await api.signUp('mallory');
    for (const username of ['adrnin', '\u0410DMIN']) {
      const renamed = await api.request(RENAME, { input: { username } }, reader.token);
      expect(renamed.errors?.[0]?.extensions?.code).toBe('USERNAME_TAKEN');
    }
    // Their own name in other capitals is theirs to take.
    const own = await api.ok(RENAME, { input: { username: 'Mallory' } }, reader.token);
    expect(own.updateUsername.user.username).toBe('Mallory');
  });

  it('strips bidirectional controls from usernames', async () => {
    await api.install();
    await api.ok(SIGN_UP, {
      input: { email: 'eve@example.com', username: 'eve\u202Egnp.exe', password: PASSWORD },
    });
    const code = await api.signUpCode('eve@example.com');
    const signedUp = await api.ok(CONFIRM, { input: { email: 'eve@example.com', code } });
    expect(signedUp.confirmSignUp.user.username).toBe('evegnp.exe');
  });

  it('stores and renders comment bodies without controls that reorder text', async () => {
    await api.install();
    const reader = await api.signUp('reader');
    const { story } = await api.ok(`query ($url: String!) { story(url: $url) { id } }`, {
      url: `${SITE_ORIGIN}/a`,
    });
    const { createComment } = await api.ok(
      `mutation ($input: CreateCommentInput!) {
        createComment(input: $input) { comment { id body bodySource } }
      }`,
      { input: { storyId: story.id, body: 'Price: \u202E001$\u202C, \u2067שלום\u2069 \u200F!' } },
      reader.token,
    );
    expect(createComment.comment.bodySource).toBe('Price: 001$, שלום \u200F!');
    expect(createComment.comment.body).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    const edited = await api.ok(
      `mutation ($input: EditCommentInput!) { editComment(input: $input) { comment { bodySource } } }`,
      { input: { commentId: createComment.comment.id, body: '\u202Dflipped' } },
      reader.token,
    );
    expect(edited.editComment.comment.bodySource).toBe('flipped');
  });
});
