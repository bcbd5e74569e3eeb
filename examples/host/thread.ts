// A minimal comment thread on the example host page, talking to the real Parley server through
// @parley/transport. It stands in for the widget (embed.js + the stream) until that ships.
import { gql } from '@urql/core';
import type { CombinedError } from '@urql/core';
import { pipe, subscribe } from 'wonka';
import { createTransport, toTransportError } from '@parley/transport';
import type { ErrorCode } from '@parley/transport';

const root = document.getElementById('parley-thread') as HTMLElement;
const parleyUrl = root.dataset.parleyUrl ?? '';
let token: string | null = null;
const transport = createTransport({ url: `${parleyUrl}/graphql`, getToken: () => token });
const storyUrl = location.href.split('#')[0] ?? location.href;

/** What each coded error says to a reader (a code without text fails to compile). */
const MESSAGES: Record<ErrorCode, string> = {
  UNAUTHENTICATED: 'Sign in first.',
  FORBIDDEN: 'You may not do that.',
  INVALID_INPUT: 'Please check what you typed.',
  NOT_FOUND: 'That is gone.',
  USERNAME_TAKEN: 'That username is taken.',
  EMAIL_TAKEN: 'That email already has an account.',
  INVALID_CREDENTIALS: 'That email and password do not match.',
  COMMENT_EMPTY: 'Write something first.',
  COMMENT_TOO_LONG: 'That comment is too long.',
  BANNED_WORD: 'That comment contains a word this site does not allow.',
  EDIT_WINDOW_EXPIRED: 'The time to edit has passed.',
  STORY_CLOSED: 'Comments are closed.',
  USER_BANNED: 'Your account is banned.',
  USER_SUSPENDED: 'Your account is suspended for now.',
  RATE_LIMITED: 'Slow down a little and try again.',
  ORIGIN_NOT_PERMITTED: 'This site is not set up for comments yet (run npm run demo).',
  ALREADY_INSTALLED: 'Already installed.',
  NOT_INSTALLED: 'Parley is not installed yet (run npm run demo).',
  TOKEN_INVALID: 'Please sign in again.',
  TOKEN_EXPIRED: 'Your session ended; please sign in again.',
  UPLOAD_TOO_LARGE: 'That file is too large.',
  UPLOAD_TYPE_NOT_ALLOWED: 'That kind of file is not allowed.',
  INTERNAL: 'Something went wrong on our side.',
  NETWORK_ERROR: 'Cannot reach the comments server.',
  REQUEST_TIMEOUT: 'The comments server is not answering.',
  BAD_RESPONSE: 'The comments server answered oddly.',
  STORAGE_QUOTA_EXCEEDED: 'This browser has no room left to keep your draft.',
  STORAGE_UNAVAILABLE: 'This browser does not let us keep your draft.',
  STORAGE_INVALID_VALUE: 'That cannot be kept as a draft.',
};

const COMMENT = `id body createdAt author { username }`;
const Thread = gql`
  query Thread($url: String!) {
    viewer { id username }
    story(url: $url) {
      id
      commentCount
      comments(first: 50) {
        edges { node { ${COMMENT} replies { edges { node { ${COMMENT} } } } } }
      }
    }
  }
`;

type CommentNode = {
  id: string;
  body: string;
  createdAt: string;
  author: { username: string } | null;
};
type ThreadData = {
  viewer: { id: string; username: string } | null;
  story: {
    id: string;
    commentCount: number;
    comments: { edges: { node: CommentNode & { replies: { edges: { node: CommentNode }[] } } }[] };
  };
};

/** Makes an element with properties and children (never HTML from strings). */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  Object.assign(element, props);
  element.append(...children);
  return element;
}

/** The reader's words for an error, by its code. */
function say(error: CombinedError | undefined): string {
  if (!error) return '';
  const { code, message } = toTransportError(error);
  return MESSAGES[code] ?? message;
}

function commentView(comment: CommentNode, replies: CommentNode[] = []): HTMLElement {
  const body = h('div');
  // The server renders and sanitizes comment HTML (allow-list); the real widget shows it inside
  // its own iframe, never in the host page.
  body.innerHTML = comment.body;
  return h(
    'article',
    {},
    h(
      'div',
      { className: 'meta' },
      `${comment.author?.username ?? 'deleted'} · ${new Date(comment.createdAt).toLocaleString()}`,
    ),
    body,
    ...replies.map((reply) => commentView(reply)),
  );
}

/** A labelled input; the username is only needed (and checked by the server) to sign up. */
function field(label: string, type: string, name: string): HTMLLabelElement {
  return h(
    'label',
    {},
    `${label} `,
    h('input', {
      type,
      name,
      required: name !== 'username',
      autocomplete: name === 'password' ? 'current-password' : name,
    }),
  );
}

async function render(): Promise<void> {
  const { data, error } = await transport.client
    .query<ThreadData>(Thread, { url: storyUrl }, { requestPolicy: 'network-only' })
    .toPromise();
  if (error || !data) {
    root.replaceChildren(h('p', { role: 'alert' }, say(error)));
    return;
  }
  const { story, viewer } = data;
  const alert = h('p', { role: 'alert' });
  const children: (Node | string)[] = [h('h2', {}, `${story.commentCount} comments`)];
  if (viewer) {
    const box = h('textarea', { name: 'body' });
    box.setAttribute('aria-label', 'Write a comment');
    const form = h('form', {}, box, h('button', { type: 'submit' }, 'Post'), alert);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const result = await transport.client
        .mutation(
          gql`
            mutation Post($input: CreateCommentInput!) {
              createComment(input: $input) {
                comment {
                  id
                  status
                }
              }
            }
          `,
          {
            input: { storyId: story.id, body: box.value },
          },
        )
        .toPromise();
      if (result.error)
        alert.textContent = say(result.error); // the text stays in the box
      else await render();
    });
    const signOut = h('button', { type: 'button' }, 'Sign out');
    signOut.addEventListener('click', async () => {
      token = null;
      await transport.storage.remove('token');
      await render();
    });
    children.push(h('p', {}, `Signed in as ${viewer.username} `, signOut), form);
  } else {
    const form = h(
      'form',
      {},
      field('Email', 'email', 'email'),
      field('Username (to sign up)', 'text', 'username'),
      field('Password', 'password', 'password'),
    );
    const signIn = h('button', { type: 'submit', value: 'signIn' }, 'Sign in');
    const signUp = h('button', { type: 'submit', value: 'signUp' }, 'Sign up');
    form.append(signIn, ' ', signUp, alert);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const action =
        ((event as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? 'signIn';
      const values = Object.fromEntries(new FormData(form)) as Record<string, string>;
      const input =
        action === 'signUp' ? values : { email: values.email, password: values.password };
      const result = await transport.client
        .mutation(
          gql`mutation Auth($input: ${action === 'signUp' ? 'SignUpInput' : 'SignInInput'}!) { ${action}(input: $input) { token } }`,
          { input },
        )
        .toPromise();
      if (result.error) {
        alert.textContent = say(result.error);
        return;
      }
      token = result.data[action].token as string;
      await transport.storage.set('token', token);
      transport.tokenChanged();
      await render();
    });
    children.push(form);
  }
  children.push(
    ...story.comments.edges.map(({ node }) =>
      commentView(
        node,
        node.replies.edges.map((e) => e.node),
      ),
    ),
  );
  root.replaceChildren(...children);
  follow(story.id);
}

let following: string | undefined;
/** New comments arrive live; the thread is fetched again when one does. */
function follow(storyId: string): void {
  if (following === storyId) return;
  following = storyId;
  pipe(
    transport.client.subscription(
      gql`
        subscription Live($storyId: ID!) {
          commentCreated(storyId: $storyId) {
            id
          }
        }
      `,
      { storyId },
    ),
    subscribe(() => void render()),
  );
}

void (async () => {
  token = (await transport.storage.get<string>('token')) ?? null;
  await render();
})();
