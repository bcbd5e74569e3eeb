// Helpers of the commenter journeys (02, 05, 07, 08, 09, 11, 12): accounts, what the server stored,
// keyboard navigation, and contexts opened with extra set-up. Additions to e2e/harness.ts live here
// so that file stays shared and small.
import type {
  BrowserContext,
  BrowserContextOptions,
  Frame,
  FrameLocator,
  Locator,
  Page,
} from 'playwright-core';
import { ACTION_TIMEOUT_MS, STREAM_FRAME, signUpCode, streamFrame, track } from '../harness';
import type { Harness, NewAccount, TrackedPage } from '../harness';

let accounts = 0;

/** A fresh account, unique within the run (usernames: letters, digits, `_` and `.`). */
export function newAccount(prefix: string): NewAccount {
  accounts += 1;
  const username = `${prefix}${accounts}${Date.now().toString(36)}`.slice(0, 30);
  return {
    email: `${username}@e2e.parley.test`,
    username,
    password: 'correct horse battery',
  };
}

/**
 * Posts `text` as a top-level comment in the stream `frame` ("Write a comment", "Post"); resolves
 * once the server's copy shows (it has a "Reply" button; the typed copy shown meanwhile has none).
 */
export async function postComment(frame: FrameLocator, text: string): Promise<void> {
  await frame.getByRole('textbox', { name: 'Write a comment', exact: true }).fill(text);
  await frame.getByRole('button', { name: 'Post', exact: true }).click();
  await frame
    .getByRole('article')
    .filter({ hasText: text })
    .filter({ has: frame.getByRole('button', { name: 'Reply', exact: true }) })
    .waitFor();
}

/** A comment as the server stores and answers it, with its replies. */
export interface StoredComment {
  id: string;
  body: string;
  editedAt: string | null;
  reactionCount: number;
  author: { username: string } | null;
  replies: StoredComment[];
}

const STORY_COMMENTS = `
  query StoryComments($url: String!) {
    story(url: $url) {
      id
      commentCount
      comments(first: 40) {
        edges {
          node {
            id
            body
            editedAt
            reactionCount
            author {
              username
            }
            replies(first: 3) {
              edges {
                node {
                  id
                  body
                  editedAt
                  reactionCount
                  author {
                    username
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

interface Edges<T> {
  edges: { node: T }[];
}
type RawComment = Omit<StoredComment, 'replies'> & { replies?: Edges<RawComment> };

/**
 * What the server stores for the story of `path` (asked as the admin, over HTTP, not through the
 * page): its top-level comments (newest first) with their replies, and the story's count.
 */
export async function storedComments(
  h: Harness,
  path: string,
): Promise<{ commentCount: number; comments: StoredComment[] }> {
  const { story } = await h.graphql<{
    story: { commentCount: number; comments: Edges<RawComment> } | null;
  }>(STORY_COMMENTS, { url: h.storyUrl(path) }, h.admin.token);
  if (!story) return { commentCount: 0, comments: [] };
  const convert = (raw: RawComment): StoredComment => ({
    ...raw,
    replies: (raw.replies?.edges ?? []).map((edge) => convert(edge.node)),
  });
  return {
    commentCount: story.commentCount,
    comments: story.comments.edges.map((edge) => convert(edge.node)),
  };
}

/** The text of a comment's sanitized HTML body (tags dropped, whitespace trimmed). */
export const textOf = (html: string): string => html.replace(/<[^>]*>/g, '').trim();

/** Every stored comment of the story of `path`, replies included, whose body contains `text`. */
export async function storedWithText(
  h: Harness,
  path: string,
  text: string,
): Promise<StoredComment[]> {
  const { comments } = await storedComments(h, path);
  return comments
    .flatMap((comment) => [comment, ...comment.replies])
    .filter((comment) => comment.body.includes(text));
}

/** The stream iframe's Frame (for `evaluate` inside it), once the loader has created it. */
export async function streamFrameOf(page: Page): Promise<Frame> {
  const handle = await page.locator(STREAM_FRAME).elementHandle({ timeout: ACTION_TIMEOUT_MS });
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('The stream iframe has no frame');
  return frame;
}

/** True when `target` holds the keyboard focus of its document and that document has focus. */
export function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate(
    (el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus(),
  );
}

/** A short description of what has the keyboard focus in `page` and its stream frame. */
async function describeFocus(page: Page): Promise<string> {
  const describe = () => {
    const el = document.activeElement;
    if (!el || !document.hasFocus()) return '(no focus here)';
    const name =
      el.getAttribute('aria-label') ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      el.textContent?.trim().slice(0, 40) ??
      '';
    return `<${el.tagName.toLowerCase()}> "${name}"`;
  };
  const host = await page.evaluate(describe);
  // No waiting: the popup has no stream frame.
  const iframe = await page.$(STREAM_FRAME);
  const frame = await iframe?.contentFrame();
  return frame ? `host: ${host}; frame: ${await frame.evaluate(describe)}` : host;
}

/**
 * Presses `key` (Tab by default; `Shift+Tab` goes back) until `target` has the keyboard focus, as a
 * keyboard user does; fails, naming where the focus went, when `max` presses do not reach it.
 */
export async function pressUntilFocused(
  page: Page,
  target: Locator,
  { key = 'Tab', max = 40 }: { key?: string; max?: number } = {},
): Promise<void> {
  await target.waitFor();
  const path: string[] = [];
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(key);
    if (i >= max - 6) path.push(await describeFocus(page));
  }
  if (await isFocused(target)) return;
  throw new Error(
    `${max} × ${key} did not reach ${String(target)}; the last stops:\n  ${path.join('\n  ')}`,
  );
}

/** Where the focus is now, for messages. */
export const focusNow = describeFocus;

/**
 * Signs up through the popup with the keyboard only: Tab to "Sign up" in the frame, Enter, then in
 * the popup type into each field (Tab between them) and Enter to submit; then the emailed code and
 * Enter. Resolves once the popup has closed.
 */
export async function signUpWithKeyboard(page: Page, account: NewAccount): Promise<void> {
  const frame = streamFrame(page);
  await pressUntilFocused(page, frame.getByRole('button', { name: 'Sign up', exact: true }));
  const opened = page.context().waitForEvent('page');
  await page.keyboard.press('Enter');
  const popup = await opened;
  await popup.waitForLoadState('domcontentloaded');
  const field = (label: string) => popup.getByLabel(label, { exact: true });
  // A real browser gives the new popup window the system focus; headless Chromium leaves it in
  // the background, where every keystroke waits for a throttled frame.
  await popup.bringToFront();
  // The popup's first field takes the focus itself (autofocus): a keyboard user starts typing.
  await pressUntilFocused(popup, field('Email'), { max: 10 });
  await popup.keyboard.type(account.email);
  await pressUntilFocused(popup, field('Username'), { max: 3 });
  await popup.keyboard.type(account.username);
  await pressUntilFocused(popup, field('Password'), { max: 3 });
  await popup.keyboard.type(account.password);
  await popup.keyboard.press('Enter');
  // The second step: the emailed code, in a field that takes the focus itself.
  await field('Code').waitFor();
  await pressUntilFocused(popup, field('Code'), { max: 10 });
  await popup.keyboard.type(await signUpCode(account.email));
  const closed = popup.waitForEvent('close');
  await popup.keyboard.press('Enter');
  await closed;
}

/** Options of {@link openPage}. */
export interface OpenPageOptions {
  /** Run in every frame and popup before their own scripts. */
  initScript?: string;
  /** Options of the new context. @default a 900 × 900 viewport, as `h.open` */
  contextOptions?: BrowserContextOptions;
  /** Called with the new context before the page is opened (routes, media, …). */
  prepare?: (context: BrowserContext) => Promise<void>;
}

/**
 * Opens `path` of the example site in a new context of the harness's browser, as `h.open` does,
 * with what that cannot set before the first navigation: an init script, a viewport, routes.
 */
export async function openPage(
  h: Harness,
  path: string,
  { initScript, contextOptions, prepare }: OpenPageOptions = {},
): Promise<TrackedPage> {
  const context = await h.browser.newContext({
    viewport: { width: 900, height: 900 },
    ...contextOptions,
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  const log = track(context);
  if (initScript !== undefined) await context.addInitScript(initScript);
  await prepare?.(context);
  const page = await context.newPage();
  await page.goto(`${h.exampleUrl}${path}`);
  return { page, context, log };
}
