import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { graphql, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { StreamData } from '../StreamContext';
import { createTestEnv, renderInStream, TEST_GRAPHQL_URL } from '../testing/createTestEnv';
import { makeStreamData, TEST_VIEWER } from '../testing/threadFixtures';
import { PARLEY_NAMESPACE } from '@parley/contract';
import { Panel } from './ProfileTab';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const viewer: Record<string, unknown> = {
  id: 'u1',
  username: 'reader',
  email: 'reader@example.com',
  emailVerified: true,
  avatarUrl: null,
  deletionRequestedAt: null,
  notificationSettings: { onReply: true, onFeatured: false, onModeration: true },
  ignoredUsers: [{ id: 'u2', username: 'alice' }],
  repliesFeedUrl: null,
  sessions: [
    {
      id: 's-here',
      device: 'Firefox on Linux',
      createdAt: '2026-11-01T10:00:00.000Z',
      lastUsedAt: '2026-11-26T09:00:00.000Z',
      current: true,
    },
    {
      id: 's-phone',
      device: 'Mobile Safari on iOS',
      createdAt: '2026-10-01T10:00:00.000Z',
      lastUsedAt: '2026-11-20T09:00:00.000Z',
      current: false,
    },
  ],
};

const data: StreamData = makeStreamData([], {
  viewer: { ...TEST_VIEWER, id: 'u1', username: 'reader', email: 'reader@example.com' },
});

const comment = (id: string, storyId: string, url: string) => ({
  id,
  body: `<p>Body of ${id}</p>`,
  createdAt: '2026-11-20T10:00:00.000Z',
  status: 'NONE',
  story: { id: storyId, url, title: `Story ${storyId}` },
});

/** Answers the tab's two queries; `pages` maps an `after` cursor to its page. */
function answerQueries(
  pages: Record<string, unknown> = {
    '': { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
  },
  overrides: Record<string, unknown> = {},
) {
  const seenAfter: (string | null)[] = [];
  server.use(
    graphql.query('Profile', () =>
      HttpResponse.json({ data: { viewer: { ...viewer, ...overrides } } }),
    ),
    graphql.query('SignInProviders', () =>
      HttpResponse.json({ data: { signInProviders: overrides['offered'] ?? [] } }),
    ),
    graphql.query('MyComments', ({ variables }) => {
      const after = (variables.after as string | null | undefined) ?? null;
      seenAfter.push(after);
      return HttpResponse.json({ data: { viewer: { id: 'u1', comments: pages[after ?? ''] } } });
    }),
  );
  return seenAfter;
}

/** Records a mutation's variables and answers `answer` (a `data` field or coded errors). */
function answerMutation(name: string, answer: { data?: Record<string, unknown>; code?: string }) {
  const calls: Record<string, unknown>[] = [];
  server.use(
    graphql.mutation(name, ({ variables }) => {
      calls.push(variables);
      return answer.code
        ? HttpResponse.json({
            errors: [{ message: 'server wording', extensions: { code: answer.code } }],
            data: null,
          })
        : HttpResponse.json({ data: answer.data });
    }),
  );
  return calls;
}

async function renderPanel(env = createTestEnv()) {
  renderInStream(<Panel />, env, data);
  await screen.findByRole('heading', { name: 'Email notifications' });
  return env;
}

const section = (name: string) => screen.getByRole('region', { name });

test('asks to confirm an unconfirmed email, and sends the link again (coded errors said)', async () => {
  answerQueries(undefined, { emailVerified: false });
  await renderPanel();
  const confirm = section('Confirm your email');
  expect(
    within(confirm).getByText(
      'Open the link we sent to reader@example.com. Until then, no email reaches you about replies or your comments.',
    ),
  ).toBeTruthy();
  const calls = answerMutation('SendEmailConfirmation', { code: 'RATE_LIMITED' });
  fireEvent.click(within(confirm).getByRole('button', { name: 'Send the link again' }));
  expect((await within(confirm).findByRole('alert')).textContent).toMatch(/a little fast/);
  expect(calls).toHaveLength(1);
  answerMutation('SendEmailConfirmation', {
    data: { sendEmailConfirmation: { user: { id: 'u1', emailVerified: false } } },
  });
  fireEvent.click(within(confirm).getByRole('button', { name: 'Send the link again' }));
  expect(
    await within(confirm).findByText(
      'Sent. Check your inbox at reader@example.com; only the newest link works.',
    ),
  ).toBeTruthy();
});

test('says nothing of confirmation once the email is confirmed', async () => {
  answerQueries();
  await renderPanel();
  expect(screen.queryByRole('region', { name: 'Confirm your email' })).toBeNull();
});

test('offers the comments of guests who confirmed this address, and claims them', async () => {
  answerQueries(undefined, { claimableGuestComments: 3 });
  await renderPanel();
  const claim = section('Your comments as a guest');
  expect(
    within(claim).getByText(
      'You wrote 3 comments as a guest with this email. Add them to your account, under your name?',
    ),
  ).toBeTruthy();
  const calls = answerMutation('ClaimGuestComments', {
    data: { claimGuestComments: { claimed: 3 } },
  });
  fireEvent.click(within(claim).getByRole('button', { name: 'Add them to my account' }));
  expect(await within(claim).findByText('Done: 3 comments are now yours.')).toBeTruthy();
  expect(calls).toHaveLength(1);
  expect(
    (within(claim).getByRole('button', { name: 'Add them to my account' }) as HTMLButtonElement)
      .disabled,
  ).toBe(true);
});

test('says nothing of guest comments when there are none to claim', async () => {
  answerQueries(undefined, { claimableGuestComments: 0 });
  await renderPanel();
  expect(screen.queryByRole('region', { name: 'Your comments as a guest' })).toBeNull();
});

test('lists my comments with a permalink to the thread and a link to each story', async () => {
  const seenAfter = answerQueries({
    '': {
      edges: [
        { cursor: 'c1', node: comment('k1', 's1', 'http://host.test/article') },
        { cursor: 'c2', node: comment('k2', 's9', 'http://host.test/other?x=1') },
      ],
      pageInfo: { hasNextPage: true, endCursor: 'c2' },
    },
    c2: {
      edges: [{ cursor: 'c3', node: comment('k3', 's1', 'http://host.test/article') }],
      pageInfo: { hasNextPage: false, endCursor: 'c3' },
    },
  });
  const env = await renderPanel();
  const mine = section('My comments');
  expect(await within(mine).findByText('Body of k1')).toBeTruthy();
  const other = within(mine).getByRole('link', { name: 'On Story s9' });
  expect(other.getAttribute('href')).toBe('http://host.test/other?x=1&commentID=k2');
  expect(other.getAttribute('target')).toBe('_top');
  // Only the comment on this story can be shown in this frame's thread.
  const show = within(mine).getAllByRole('button', { name: 'Show in the thread' });
  expect(show).toHaveLength(1);
  fireEvent.click(show[0]!);
  expect(env.bridge.sent).toContainEqual({ type: 'permalink', payload: { commentId: 'k1' } });

  fireEvent.click(within(mine).getByRole('button', { name: 'More of my comments' }));
  expect(await within(mine).findByText('Body of k3')).toBeTruthy();
  expect(within(mine).getByText('Body of k1')).toBeTruthy();
  expect(seenAfter).toContain('c2');
  expect(within(mine).queryByRole('button', { name: 'More of my comments' })).toBeNull();
});

test('saves the notification checkboxes as they are ticked', async () => {
  answerQueries();
  const calls = answerMutation('UpdateNotificationSettings', {
    data: { updateNotificationSettings: { user: { id: 'u1', notificationSettings: null } } },
  });
  await renderPanel();
  const form = section('Email notifications');
  const featured = within(form).getByLabelText('A comment of mine is featured') as HTMLInputElement;
  expect(featured.checked).toBe(false);
  fireEvent.click(featured);
  fireEvent.click(within(form).getByLabelText('Someone replies to me'));
  fireEvent.click(within(form).getByRole('button', { name: 'Save notification settings' }));
  expect(await within(form).findByText('Notification settings saved.')).toBeTruthy();
  expect(calls).toEqual([{ input: { onReply: false, onFeatured: true, onModeration: true } }]);
});

test('makes the replies feed link, shows it, and replaces it (refusals said by their code)', async () => {
  answerQueries();
  const URL_1 = 'https://comments.example/feeds/replies/first-key.atom';
  let calls = answerMutation('MakeRepliesFeed', {
    data: { makeRepliesFeed: { user: { id: 'u1', repliesFeedUrl: URL_1 } } },
  });
  await renderPanel();
  const feed = section('Replies feed');
  expect(within(feed).queryByLabelText('Your feed link')).toBeNull();
  fireEvent.click(within(feed).getByRole('button', { name: 'Make my feed link' }));
  expect(await within(feed).findByText('Your feed link is ready.')).toBeTruthy();
  const link = within(feed).getByLabelText('Your feed link') as HTMLInputElement;
  expect(link.value).toBe(URL_1);
  await waitFor(() => expect(document.activeElement).toBe(link));
  expect(calls).toEqual([{}]);
  const replace = within(feed).getByRole('button', { name: 'Make a new link' });
  expect(document.getElementById(replace.getAttribute('aria-describedby')!)?.textContent).toMatch(
    /stops working/,
  );

  calls = answerMutation('MakeRepliesFeed', { code: 'RATE_LIMITED' });
  expect(within(feed).getByText(/stops working/)).toBeTruthy();
  fireEvent.click(within(feed).getByRole('button', { name: 'Make a new link' }));
  expect((await within(feed).findByRole('alert')).textContent).toMatch(/a little fast/);
  // The link it had stays shown: it still works.
  expect((within(feed).getByLabelText('Your feed link') as HTMLInputElement).value).toBe(URL_1);
  expect(calls).toHaveLength(1);
});

test('shows the replies feed link the account already has', async () => {
  answerQueries(undefined, { repliesFeedUrl: 'https://comments.example/feeds/replies/k.atom' });
  await renderPanel();
  const feed = section('Replies feed');
  expect((within(feed).getByLabelText('Your feed link') as HTMLInputElement).value).toBe(
    'https://comments.example/feeds/replies/k.atom',
  );
  expect(within(feed).getByRole('button', { name: 'Make a new link' })).toBeTruthy();
});

test('changes the username, and shows a taken name by its code', async () => {
  answerQueries();
  let calls = answerMutation('UpdateUsername', { code: 'USERNAME_TAKEN' });
  await renderPanel();
  const form = section('Username');
  const field = within(form).getByLabelText('New username');
  fireEvent.input(field, { target: { value: 'Taken' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Change username' }));
  expect((await within(form).findByRole('alert')).textContent).toBe('That username is taken.');
  expect(calls).toEqual([{ input: { username: 'Taken' } }]);

  calls = answerMutation('UpdateUsername', {
    data: { updateUsername: { user: { id: 'u1', username: 'Fresh.Name' } } },
  });
  fireEvent.click(within(form).getByRole('button', { name: 'Change username' }));
  expect(await within(form).findByText('Username changed to Fresh.Name.')).toBeTruthy();
  expect(within(form).queryByRole('alert')).toBeNull();
  expect(calls).toEqual([{ input: { username: 'Taken' } }]);
});

test('changes the email with the current password, and shows a wrong password by its code', async () => {
  answerQueries();
  let calls = answerMutation('UpdateEmail', { code: 'INVALID_CREDENTIALS' });
  await renderPanel();
  const form = section('Email');
  fireEvent.input(within(form).getByLabelText('New email'), {
    target: { value: 'new@example.com' },
  });
  const password = within(form).getByLabelText('Current password') as HTMLInputElement;
  fireEvent.input(password, { target: { value: 'wrong' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Change email' }));
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'That email and password do not match.',
  );
  expect(calls).toEqual([{ input: { email: 'new@example.com', password: 'wrong' } }]);
  expect(password.value).toBe('');

  calls = answerMutation('UpdateEmail', {
    data: { updateEmail: { user: { id: 'u1', email: 'new@example.com', emailVerified: false } } },
  });
  fireEvent.input(password, { target: { value: 'right' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Change email' }));
  expect(
    await within(form).findByText('Email changed. We sent a confirmation link to new@example.com.'),
  ).toBeTruthy();
  expect(calls).toEqual([{ input: { email: 'new@example.com', password: 'right' } }]);
});

test('changes the password and keeps the fresh token without a session change (no remount)', async () => {
  answerQueries();
  const calls = answerMutation('UpdatePassword', {
    data: { updatePassword: { token: 'fresh-token', user: { id: 'u1' } } },
  });
  const env = createTestEnv();
  const signedIn = jest.fn();
  env.session.subscribe(signedIn);
  await renderPanel(env);
  const form = section('Password');
  fireEvent.input(within(form).getByLabelText('Current password'), {
    target: { value: 'old one' },
  });
  fireEvent.input(within(form).getByLabelText('New password'), {
    target: { value: 'a new secret' },
  });
  fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
  await waitFor(() => expect(env.session.getToken()).toBe('fresh-token'));
  // Same reader: listeners (the stream's remount on sign-in) are not told.
  expect(signedIn).not.toHaveBeenCalled();
  expect(calls).toEqual([{ input: { oldPassword: 'old one', newPassword: 'a new secret' } }]);
  expect(
    await within(form).findByText('Password changed. Your other devices are signed out.'),
  ).toBeTruthy();
});

test('uploads the avatar as a multipart request and shows a refused type by its code', async () => {
  answerQueries();
  const parts: Record<string, string>[] = [];
  let contentType = '';
  server.use(
    http.post(TEST_GRAPHQL_URL, async ({ request }) => {
      if (!request.headers.get('content-type')?.startsWith('multipart/form-data')) return;
      contentType = request.headers.get('content-type') ?? '';
      const form = await request.formData();
      const seen: Record<string, string> = {};
      for (const [name, value] of form.entries()) {
        seen[name] = typeof value === 'string' ? value : `file:${value.name}:${await value.text()}`;
      }
      parts.push(seen);
      return HttpResponse.json({
        errors: [{ message: 'no', extensions: { code: 'UPLOAD_TYPE_NOT_ALLOWED' } }],
        data: null,
      });
    }),
  );
  await renderPanel();
  const form = section('Avatar');
  const input = within(form).getByLabelText('Image (PNG, JPEG, GIF or WebP)') as HTMLInputElement;
  expect(input.type).toBe('file');
  expect(input.accept).toBe('image/png,image/jpeg,image/webp,image/gif');
  // Node's File: under jsdom, fetch and FormData are Node's and take only their own File.
  const file = new NodeFile(['GIF89a'], 'me.gif', { type: 'image/gif' });
  fireEvent.change(input, { target: { files: [file] } });
  fireEvent.click(within(form).getByRole('button', { name: 'Upload avatar' }));
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'That kind of file is not allowed. Use PNG, JPEG, GIF or WebP.',
  );
  expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
  expect(JSON.parse(parts[0]!.operations!)).toMatchObject({
    operationName: 'UploadAvatar',
    variables: { file: null },
  });
  expect(JSON.parse(parts[0]!.map!)).toEqual({ 0: ['variables.file'] });
  expect(parts[0]!['0']).toBe('file:me.gif:GIF89a');
});

test('asks for the data download and says a link was emailed', async () => {
  answerQueries();
  const calls = answerMutation('RequestCommentsDownload', {
    data: { requestCommentsDownload: { ok: true } },
  });
  await renderPanel();
  const form = section('Download my data');
  fireEvent.click(within(form).getByRole('button', { name: 'Email me my data' }));
  expect(await within(form).findByText('We emailed you a link.')).toBeTruthy();
  expect(calls).toHaveLength(1);
});

test('signs out everywhere, then forgets this frame’s token too', async () => {
  answerQueries();
  const calls = answerMutation('SignOutEverywhere', { data: { signOutEverywhere: { ok: true } } });
  const env = createTestEnv();
  await env.session.ready;
  await env.session.signIn('session-token');
  await renderPanel(env);
  const form = section('Signed-in devices');
  fireEvent.click(within(form).getByRole('button', { name: 'Sign out everywhere' }));
  expect(await within(form).findByText('Every session is ended.')).toBeTruthy();
  expect(calls).toHaveLength(1);
  await waitFor(() => expect(env.session.getToken()).toBeNull());
});

test('lists the signed-in devices and signs out another one, never this one', async () => {
  answerQueries();
  const calls = answerMutation('EndSession', { data: { endSession: { ok: true } } });
  await renderPanel();
  const devices = section('Signed-in devices');
  const list = within(devices).getByRole('list', { name: 'Signed-in devices' });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    expect.stringMatching(/^Firefox on Linux · this device last used /),
    expect.stringMatching(/^Mobile Safari on iOS last used .*Sign out$/),
  ]);
  // Only the other device has a button.
  expect(within(list).getAllByRole('button')).toHaveLength(1);
  fireEvent.click(
    within(list).getByRole('button', { name: /^Sign out Mobile Safari on iOS, signed in / }),
  );
  expect(await within(devices).findByText('That device is signed out.')).toBeTruthy();
  expect(calls).toEqual([{ input: { id: 's-phone' } }]);
  expect(within(list).getAllByRole('listitem')).toHaveLength(1);
});

test('stops ignoring a user and takes them off the list', async () => {
  answerQueries();
  const calls = answerMutation('UnignoreUser', { data: { unignoreUser: { user: { id: 'u2' } } } });
  await renderPanel();
  const list = section('Ignored users');
  fireEvent.click(within(list).getByRole('button', { name: 'Stop ignoring alice' }));
  expect(await within(list).findByText('You see comments by alice again.')).toBeTruthy();
  expect(within(list).getByText('You are not ignoring anyone.')).toBeTruthy();
  expect(calls).toEqual([{ input: { userId: 'u2' } }]);
});

test('deletes the account only once the username is typed, then shows the date and can cancel', async () => {
  answerQueries();
  const requested = answerMutation('RequestAccountDeletion', {
    data: {
      requestAccountDeletion: {
        user: { id: 'u1', deletionRequestedAt: '2026-11-21T12:00:00.000Z' },
      },
    },
  });
  const cancelled = answerMutation('CancelAccountDeletion', {
    data: { cancelAccountDeletion: { user: { id: 'u1', deletionRequestedAt: null } } },
  });
  await renderPanel();
  const region = section('Delete my account');
  const submit = within(region).getByRole('button', { name: 'Delete my account' });
  const confirm = within(region).getByLabelText('Type your username (reader) to confirm');
  fireEvent.input(confirm, { target: { value: 'someone else' } });
  expect((submit as HTMLButtonElement).disabled).toBe(true);
  fireEvent.submit(submit.closest('form')!);
  fireEvent.input(confirm, { target: { value: 'reader' } });
  expect((submit as HTMLButtonElement).disabled).toBe(false);
  expect(requested).toHaveLength(0);

  fireEvent.click(submit);
  // Requested on the 21st; deleted seven days later.
  expect(
    await within(region).findByText('Your account will be deleted on November 28, 2026.'),
  ).toBeTruthy();
  expect(requested).toHaveLength(1);
  fireEvent.click(within(region).getByRole('button', { name: 'Cancel deletion' }));
  expect(await within(region).findByText('Your account will not be deleted.')).toBeTruthy();
  expect(cancelled).toHaveLength(1);
  expect(within(region).getByRole('button', { name: 'Delete my account' })).toBeTruthy();
});

test('shows a pending deletion on arrival', async () => {
  answerQueries(undefined, { deletionRequestedAt: '2026-11-01T12:00:00.000Z' });
  await renderPanel();
  const region = section('Delete my account');
  expect(
    within(region).getByText('Your account will be deleted on November 8, 2026.'),
  ).toBeTruthy();
  expect(within(region).getByRole('button', { name: 'Cancel deletion' })).toBeTruthy();
});

test('lists connected sign-in providers, disconnects one, and keeps the last way to sign in', async () => {
  answerQueries(undefined, {
    hasPassword: true,
    identities: [
      { id: 'i-gh', email: 'reader@github.example', provider: { id: 'p-gh', name: 'GitHub' } },
    ],
    offered: [
      { id: 'p-gh', kind: 'GITHUB', name: 'GitHub' },
      { id: 'p-co', kind: 'OIDC', name: 'Company SSO' },
    ],
  });
  const disconnect = answerMutation('DisconnectProvider', {
    data: { disconnectProvider: { user: { id: 'u1' } } },
  });
  await renderPanel();
  const providers = await screen.findByRole('region', { name: 'Sign-in providers' });
  expect(within(providers).getByText('GitHub · reader@github.example')).toBeTruthy();
  // Offered and not connected yet.
  expect(
    await within(providers).findByRole('button', { name: 'Connect Company SSO' }),
  ).toBeTruthy();
  expect(within(providers).queryByRole('button', { name: 'Connect GitHub' })).toBeNull();
  fireEvent.click(within(providers).getByRole('button', { name: 'Disconnect GitHub' }));
  await waitFor(() => expect(disconnect).toEqual([{ input: { identityId: 'i-gh' } }]));
});

test('an account without a password cannot disconnect its only provider', async () => {
  answerQueries(undefined, {
    hasPassword: false,
    identities: [{ id: 'i-gh', email: null, provider: { id: 'p-gh', name: 'GitHub' } }],
  });
  await renderPanel();
  const providers = await screen.findByRole('region', { name: 'Sign-in providers' });
  expect(within(providers).queryByRole('button', { name: 'Disconnect GitHub' })).toBeNull();
  expect(within(providers).getByText(/This is your only way to sign in/)).toBeTruthy();
});

test('connects a provider in the sign-in popup, with a one-time URL from the server', async () => {
  answerQueries(undefined, {
    hasPassword: true,
    identities: [],
    offered: [{ id: 'p-co', kind: 'OIDC', name: 'Company SSO' }],
  });
  const started = answerMutation('StartProviderConnection', {
    data: {
      startProviderConnection: {
        url: 'http://parley.test/auth/providers/p-co/start?site=s1&connect=ticket',
      },
    },
  });
  const popup = { closed: false, close: jest.fn(), location: { href: 'about:blank' } };
  const open = jest.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  try {
    await renderPanel();
    const providers = await screen.findByRole('region', { name: 'Sign-in providers' });
    fireEvent.click(await within(providers).findByRole('button', { name: 'Connect Company SSO' }));
    // Opened in the click itself: a popup opened after a request would be blocked.
    expect(open).toHaveBeenCalledWith('about:blank', 'parley-auth', expect.any(String));
    await waitFor(() =>
      expect(popup.location.href).toBe(
        'http://parley.test/auth/providers/p-co/start?site=s1&connect=ticket&locale=en&theme=light',
      ),
    );
    expect(started).toEqual([
      { input: { providerId: 'p-co', storyURL: 'http://host.test/article' } },
    ]);
    // Back from the provider, the popup hands over its code; this frame redeems it, signed in.
    const redeemed = answerMutation('RedeemProviderSignIn', {
      data: { redeemProviderSignIn: { token: null, connectedProvider: 'Company SSO' } },
    });
    // Another window, or another origin, is not listened to.
    window.dispatchEvent(messageFrom(window, window.location.origin));
    window.dispatchEvent(messageFrom(popup, 'http://evil.test'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(redeemed).toEqual([]);
    window.dispatchEvent(messageFrom(popup, window.location.origin));
    await waitFor(() => expect(redeemed).toEqual([{ input: { code: 'c-9' } }]));
    expect(await within(providers).findByText('Connected.')).toBeTruthy();
  } finally {
    open.mockRestore();
  }
});

/** The popup's message with its connection code, as if posted by `source` at `origin`. */
function messageFrom(source: unknown, origin: string): MessageEvent {
  const event = new MessageEvent('message', {
    data: { ns: PARLEY_NAMESPACE, type: 'providerConnect', payload: { code: 'c-9' } },
    origin,
  });
  // jsdom's MessageEvent takes only its own windows as a source: the stand-in popup is set here.
  Object.defineProperty(event, 'source', { value: source });
  return event;
}
