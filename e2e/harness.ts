// The end-to-end harness: the real Parley server from the built packages (`npm run build`) on
// 127.0.0.1 with a fresh SQLite data folder, installed through the real `install` mutation; the
// example host site on another port, so the stream iframe is truly cross-origin; Debian's
// Chromium through playwright-core. Everything it starts, `close()` stops.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, FrameLocator, Page, Request } from 'playwright-core';
import {
  builtClientRoutes,
  CLIENT_BUILDS,
  createParleyServer,
  loadConfig,
  routePath,
} from '@parley/server';
import type { ParleyServer } from '@parley/server';
import {
  answerChallenges,
  createComment,
  createUser,
  findOrCreateStory,
  renderComment,
  SIGN_UP_CODE_LINE,
  signUpCodeFromOutbox,
  matchFromOutbox,
} from '@parley/server/testing';
import { createExampleServer } from '../examples/host/createExampleServer';
import { freePort, launchChromium, REPOSITORY_ROOT } from './support/browser';
import { startSmtpInbox } from './support/smtpInbox';
import type { SmtpInbox } from './support/smtpInbox';

/** Where screenshots and page logs go (CI prints this path). */
export const E2E_OUTPUT = join(REPOSITORY_ROOT, 'test-output/e2e');

/** Selector of the stream iframe the loader creates (its title is in the thread's language). */
export const STREAM_FRAME = 'iframe[src*="/embed/stream"]';

/** The admin the harness installs Parley with. */
export const ADMIN = Object.freeze({
  email: 'admin@e2e.parley.test',
  username: 'admin',
  password: 'e2e-admin-password',
});

/** How long one browser step (a click, a wait for an element) may take. */
export const ACTION_TIMEOUT_MS = 10_000;

/** A page with everything its context reported: console, page errors, failed requests. */
export interface TrackedPage {
  /** The page (its own browser context: own storage, as another reader's browser). */
  page: Page;
  /** Its browser context. */
  context: BrowserContext;
  /** Console messages, uncaught errors, failed requests and GraphQL errors, in order. */
  log: string[];
}

/** The running harness. */
export interface Harness {
  /** Parley's public URL, e.g. `http://127.0.0.1:41234`. */
  parleyUrl: string;
  /** The example host site's origin (another port: another origin). */
  exampleUrl: string;
  /** The Parley server (its `deps.db` reaches the data). */
  server: ParleyServer;
  /** Chromium. */
  browser: Browser;
  /** The admin's Parley token and user id. */
  admin: { token: string; id: string };
  /** The installed site's id. */
  siteId: string;
  /** The mailboxes, when started with `smtp` (else the mail is in the data folder's outbox). */
  inbox: SmtpInbox | undefined;
  /** The site's SSO secret (the example `/sso` page signs with it). */
  ssoSecret: string;
  /** The story URL of a path on the example site (what its canonical link says). */
  storyUrl(path: string): string;
  /**
   * Signs up `account` over HTTP, as the popup does (signUp, then confirmSignUp with the code from
   * the outbox); resolves its token.
   */
  signUp(account: NewAccount): Promise<string>;
  /** Runs a GraphQL operation over HTTP; throws with the error codes when it fails. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<T>;
  /**
   * Seeds published top-level comments on the story of `path`, straight into storage (no rate
   * limits, no live events): for pages about to be loaded. Oldest first. With `chain`, each is a
   * reply to the one before it (a thread as deep as `bodies` is long).
   */
  seedComments(
    path: string,
    bodies: readonly string[],
    options?: { chain?: boolean },
  ): Promise<void>;
  /** Opens `path` of the example site in a fresh browser context, recording what it reports. */
  open(path: string): Promise<TrackedPage>;
  /**
   * Opens any absolute URL (e.g. `${parleyUrl}/admin`) in a fresh browser context, recording
   * what it reports, as `open` does.
   */
  openUrl(url: string): Promise<TrackedPage>;
  /**
   * Opens the console at `path` (default `/admin`) in a fresh browser context, signed in as
   * `account` (default ADMIN) through the login page.
   */
  openConsole(path?: string, account?: ConsoleAccount): Promise<TrackedPage>;
  /** Closes every context, the browser, both servers; removes the data folder. */
  close(): Promise<void>;
}

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  /**
   * Install Parley through the `install` mutation (admin: ADMIN). `false` leaves the data folder
   * empty, for the install wizard. @default true
   */
  install?: boolean;
  /**
   * Deliver Parley's email over SMTP to an in-process inbox (`inbox`) instead of the outbox
   * folder. @default false
   */
  smtp?: boolean;
}

/**
 * A harness started with `install: false`: Parley is not installed, so there is no admin, site
 * or SSO secret yet (the example `/sso` page cannot sign), and nothing to seed comments into.
 */
export type UninstalledHarness = Omit<Harness, 'admin' | 'siteId' | 'ssoSecret' | 'seedComments'>;

/** Who signs in to the console. */
export interface ConsoleAccount {
  email: string;
  password: string;
}

/** How long starting a harness (server, example site, Chromium, install) may take. */
export const HARNESS_START_TIMEOUT_MS = 60_000;

/**
 * Starts a harness before the file's tests and closes it after them (Jest hooks), and returns it
 * as an object usable at once in test bodies: each property is read from the running harness.
 */
export function useHarness(options?: { install?: true; smtp?: boolean }): Harness;
/** The same for a Parley that waits for its install wizard. */
export function useHarness(options: { install: false }): UninstalledHarness;
export function useHarness(options: HarnessOptions = {}): Harness | UninstalledHarness {
  let running: Harness | UninstalledHarness | undefined;
  beforeAll(async () => {
    running = await startHarness(options);
  }, HARNESS_START_TIMEOUT_MS);
  afterAll(async () => {
    await running?.close();
  });
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!running) throw new Error('[e2e] the harness is used before beforeAll started it');
      return (running as unknown as Record<PropertyKey, unknown>)[key];
    },
  });
}

/** The builds these tests load: the loader, count script, stream and popup. */
const WIDGET_ROUTES = ['/embed.js', '/count.js', '/embed/stream', '/embed/auth', '/embed/assets'];

/** Widget builds that are missing now, as `route → path` lines. */
function missingBuilds(): string[] {
  return WIDGET_ROUTES.map((route) => [route, CLIENT_BUILDS[route]] as const)
    .filter(([, target]) => target === undefined || !existsSync(routePath(target)))
    .map(
      ([route, target]) => `${route} → ${target === undefined ? '(no route)' : routePath(target)}`,
    );
}

/** Newest modification time of the files under `dir`, in ms. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function assertBuilt(): void {
  const missing = missingBuilds();
  if (missing.length > 0) {
    throw new Error(
      'The browser tests load the built widget; run `npm run build` first. Missing:\n  ' +
        missing.join('\n  '),
    );
  }
  // The tests load dist, not src: say so when the sources moved on since the last build.
  const built = Math.min(
    ...WIDGET_ROUTES.map((route) => statSync(routePath(CLIENT_BUILDS[route] ?? '')).mtimeMs),
  );
  for (const pkg of ['embed', 'stream', 'transport']) {
    const changed = newestMtime(join(REPOSITORY_ROOT, 'packages', pkg, 'src'));
    if (changed > built) {
      console.warn(
        `packages/${pkg}/src changed after the last build (${new Date(changed).toISOString()} > ` +
          `${new Date(built).toISOString()}): these tests run the build; \`npm run build\` first.`,
      );
    }
  }
}

/** Starts everything. Call `close()` in afterAll (it is safe after a partial start). */
export async function startHarness(options?: { install?: true; smtp?: boolean }): Promise<Harness>;
/** Starts everything but the install: Parley waits for its install wizard. */
export async function startHarness(options: { install: false }): Promise<UninstalledHarness>;
export async function startHarness(options?: HarnessOptions): Promise<Harness | UninstalledHarness>;
export async function startHarness({ install = true, smtp = false }: HarnessOptions = {}): Promise<
  Harness | UninstalledHarness
> {
  assertBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
  const inbox = smtp ? await startSmtpInbox() : undefined;
  runningMail = { dataDir, inbox };
  const contexts = new Set<BrowserContext>();
  let example: Server | undefined;
  let server: ParleyServer | undefined;
  let browser: Browser | undefined;
  let ssoSecret = '';
  let installedSiteId: string | undefined;

  const close = async () => {
    await Promise.allSettled([...contexts].map((c) => c.close()));
    await browser?.close().catch(() => undefined);
    if (example) {
      const stopping = example;
      stopping.closeAllConnections();
      await new Promise<void>((resolve) => stopping.close(() => resolve()));
    }
    await server?.close();
    await inbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // The public URL must be known before the server starts (its own origin may frame and call
    // it), so the port is picked first instead of listening on port 0.
    const port = await freePort();
    const parleyUrl = `http://127.0.0.1:${port}`;
    example = createExampleServer({
      parleyUrl,
      pagesDir: join(REPOSITORY_ROOT, 'examples/host'),
      ssoSecret: () => ssoSecret,
      siteId: () => installedSiteId,
    });
    const exampleServer = example;
    await new Promise<void>((resolve, reject) => {
      exampleServer.once('error', reject);
      exampleServer.listen(0, '127.0.0.1', resolve);
    });
    const exampleUrl = `http://127.0.0.1:${(example.address() as AddressInfo).port}`;

    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: parleyUrl,
      PARLEY_DATA_DIR: dataDir,
      SMTP_URL: inbox?.url,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'silent',
    });
    server = await createParleyServer({ config, staticRoutes: builtClientRoutes() });
    await server.listen();

    const graphql = async <T>(
      query: string,
      variables: Record<string, unknown> = {},
      token?: string,
    ): Promise<T> => {
      const response = await fetch(`${parleyUrl}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query, variables }),
      });
      const json = (await response.json()) as { data?: T; errors?: unknown[] };
      if (json.errors || !json.data) {
        throw new Error(`GraphQL ${response.status}: ${JSON.stringify(json.errors)}\n${query}`);
      }
      return json.data;
    };

    browser = await launchChromium();
    const runningBrowser = browser;
    const db = server.deps.db;
    let seeder: string | undefined;

    const openUrl = async (
      url: string,
      {
        viewport = { width: 900, height: 900 },
      }: { viewport?: { width: number; height: number } } = {},
    ): Promise<TrackedPage> => {
      const context = await runningBrowser.newContext({ viewport });
      // Every step of a journey takes well under a second when things work: fail fast.
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      const log = track(context);
      await context.addInitScript(LOG_PARLEY_MESSAGES);
      const page = await context.newPage();
      await page.goto(url);
      return { page, context, log };
    };

    const common = {
      parleyUrl,
      exampleUrl,
      inbox,
      server,
      browser,
      graphql,
      async signUp(account: NewAccount) {
        // The sign-up's proof of work (auth/botCheck.ts), answered as the popup does.
        const answered = await answerChallenges(async (answer) => {
          const response = await fetch(`${parleyUrl}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: 'mutation ($input: SignUpInput!) { signUp(input: $input) { email } }',
              variables: { input: { ...account, ...answer } },
            }),
          });
          return (await response.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
        });
        if (answered.errors) throw new Error(`signUp: ${JSON.stringify(answered.errors)}`);
        const code = await signUpCode(account.email);
        const { confirmSignUp } = await graphql<{ confirmSignUp: { token: string } }>(
          'mutation ($input: ConfirmSignUpInput!) { confirmSignUp(input: $input) { token } }',
          { input: { email: account.email, code } },
        );
        return confirmSignUp.token;
      },
      storyUrl: (path: string) => `${exampleUrl}${path}`,
      open: (path: string) => openUrl(`${exampleUrl}${path}`),
      openUrl: (url: string) => openUrl(url),
      async openConsole(path = '/admin', account: ConsoleAccount = ADMIN) {
        // Wide enough for the console's full layout (it works from 1024 px).
        const tracked = await openUrl(`${parleyUrl}/admin/login`, {
          viewport: { width: 1280, height: 900 },
        });
        await signInToConsole(tracked.page, account);
        if (path !== '/admin') await tracked.page.goto(`${parleyUrl}${path}`);
        return tracked;
      },
      close,
    };
    if (!install) return common;

    const installed = await graphql<any>(
      `
        mutation ($input: InstallInput!) {
          install(input: $input) {
            token
            user {
              id
            }
          }
        }
      `,
      {
        input: {
          organization: { name: 'E2E', contactEmail: 'team@e2e.parley.test', url: exampleUrl },
          site: { name: 'Example host', url: exampleUrl, allowedOrigins: [exampleUrl] },
          admin: ADMIN,
        },
      },
    );
    const admin = { token: installed.install.token as string, id: installed.install.user.id };
    const { sites } = await graphql<any>(
      `
        {
          sites {
            id
          }
        }
      `,
      {},
      admin.token,
    );
    const siteId: string = sites[0].id;
    installedSiteId = siteId;
    // The secret is shown once, in the answer of the rotation that created it.
    const rotated = await graphql<any>(
      `
        mutation ($siteId: ID!) {
          rotateSsoKey(input: { siteId: $siteId }) {
            site {
              ssoKeys {
                secret
              }
            }
          }
        }
      `,
      { siteId },
      admin.token,
    );
    ssoSecret = rotated.rotateSsoKey.site.ssoKeys.find(
      (k: { secret: string | null }) => k.secret,
    ).secret;

    return {
      ...common,
      admin,
      siteId,
      ssoSecret,
      async seedComments(path: string, bodies: readonly string[], { chain = false } = {}) {
        seeder ??= (
          await createUser(db, {
            username: 'seeder',
            email: 'seeder@e2e.parley.test',
            emailVerified: true,
          })
        ).id;
        const { story } = await findOrCreateStory(db, {
          siteId,
          url: `${exampleUrl}${path}`,
          title: path,
        });
        const start = Date.now() - bodies.length * 1000;
        let parentId: string | null = null;
        for (const [i, body] of bodies.entries()) {
          const { comment } = await createComment(db, {
            storyId: story.id,
            authorId: seeder,
            parentId,
            bodySource: body,
            bodyHtml: renderComment(body),
            createdAt: new Date(start + i * 1000).toISOString(),
          });
          if (chain) parentId = comment.id;
        }
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Runs in every frame and popup: logs each Parley postMessage it receives (type only, never the
 * payload: it may hold a token), so a broken handshake shows in the journey's log.
 */
const LOG_PARLEY_MESSAGES = `
  addEventListener('message', (event) => {
    const data = event.data;
    if (data && typeof data === 'object' && typeof data.ns === 'string' && data.ns.startsWith('parley')) {
      console.debug('[parley message] ' + location.pathname + ' received ' + data.type + ' from ' + event.origin);
    }
  }, true);
`;

/** The trusted documents, by id: what a browser's request names. */
const TRUSTED_DOCUMENTS = JSON.parse(
  readFileSync(join(REPOSITORY_ROOT, 'packages/contract/persisted-documents.json'), 'utf8'),
) as Record<string, string>;

/** Marks a log line of a browser's GraphQL request that carried query text instead of an id. */
const TEXT_SENT = 'GraphQL TEXT SENT (not a trusted document):';

/** Records what a context's pages (the host page, its frames, popups) report. */
export function track(context: BrowserContext): string[] {
  const log: string[] = [];
  const started = Date.now();
  const add = (line: string) => log.push(`+${String(Date.now() - started).padStart(5)}ms ${line}`);
  const where = (url: string) => url.replace(/^https?:\/\/127\.0\.0\.1:\d+/, '');
  context.on('console', (message) => {
    const { url, lineNumber } = message.location();
    add(`console.${message.type()} [${where(url)}:${lineNumber}] ${message.text()}`);
  });
  context.on('weberror', (error) => {
    add(
      `uncaught in ${where(error.page()?.url() ?? '?')}: ${error.error().stack ?? error.error()}`,
    );
  });
  context.on('requestfailed', (request) => {
    add(
      `request failed: ${request.method()} ${where(request.url())} ${request.failure()?.errorText}`,
    );
  });
  // What a browser sends to /graphql: a trusted document's id (GET parameters or a JSON body),
  // never query text; a request with text is logged with TEXT_SENT and fails the journey.
  const isGraphQL = (request: Request) => new URL(request.url()).pathname === '/graphql';
  const sentOf = (request: Request): { query?: string; id?: string } => {
    let params: { query?: unknown; extensions?: { persistedQuery?: { documentId?: unknown } } };
    try {
      params =
        request.method() === 'GET'
          ? {
              query: new URL(request.url()).searchParams.get('query') ?? undefined,
              extensions: JSON.parse(new URL(request.url()).searchParams.get('extensions') ?? '{}'),
            }
          : (request.postDataJSON() ?? {});
    } catch {
      return {}; // multipart (an avatar upload): its operations part is not read here
    }
    const id = params.extensions?.persistedQuery?.documentId;
    return {
      query: typeof params.query === 'string' ? params.query : undefined,
      id: typeof id === 'string' ? id : undefined,
    };
  };
  const operationOf = ({ query, id }: { query?: string; id?: string }) => {
    const text = query ?? (id === undefined ? '' : (TRUSTED_DOCUMENTS[id] ?? ''));
    return /(query|mutation|subscription)\s+(\w+)/.exec(text)?.[2] ?? `(unknown: ${id})`;
  };
  context.on('request', (request) => {
    if (!isGraphQL(request) || request.method() === 'OPTIONS') return;
    const sent = sentOf(request);
    add(`GraphQL → ${request.method()} ${operationOf(sent)}`);
    if (sent.query !== undefined) add(`${TEXT_SENT} ${operationOf(sent)}`);
  });
  context.on('response', (response) => {
    const request = response.request();
    if (response.status() >= 400) {
      add(`HTTP ${response.status()} ${request.method()} ${where(response.url())}`);
    }
    // GraphQL answers 200 with `errors`: their codes are what explains a broken widget.
    if (isGraphQL(request) && request.method() !== 'OPTIONS') {
      response.json().then(
        (json: { errors?: { message: string; extensions?: { code?: string } }[] }) => {
          for (const error of json.errors ?? []) {
            add(
              `GraphQL ← ${operationOf(sentOf(request))}: ${error.extensions?.code} ${error.message}`,
            );
          }
        },
        () => undefined,
      );
    }
  });
  context.on('page', (page) => {
    add(`page opened: ${where(page.url())}`);
    page.on('close', () => add(`page closed: ${where(page.url())}`));
    page.on('websocket', (socket) => {
      add(`websocket open ${where(socket.url())}`);
      socket.on('socketerror', (error) => add(`websocket error ${error}`));
      socket.on('close', () => add(`websocket closed ${where(socket.url())}`));
    });
  });
  return log;
}

/** The stream iframe of a host page. */
export function streamFrame(page: Page): FrameLocator {
  return page.frameLocator(STREAM_FRAME);
}

/** An account to sign up with. */
export interface NewAccount {
  email: string;
  username: string;
  password: string;
}

/**
 * Where the mail of the harness this test file started goes: the data folder's outbox, or the
 * SMTP inbox when it was started with `smtp`.
 */
let runningMail: { dataDir: string; inbox: SmtpInbox | undefined } | undefined;

/**
 * The code of the sign-up email to `email`, from the running harness's outbox or SMTP inbox:
 * what a reader copies from their mailbox.
 */
export async function signUpCode(email: string): Promise<string> {
  if (runningMail === undefined) throw new Error('No harness is running in this file');
  const { dataDir, inbox } = runningMail;
  if (inbox === undefined) return signUpCodeFromOutbox(dataDir, email);
  const mail = await inbox.waitFor((m) => m.to.includes(email) && SIGN_UP_CODE_LINE.test(m.text));
  return SIGN_UP_CODE_LINE.exec(mail.text)![1]!;
}

/** The sign-up email's one-click link (to the popup's page, the address and code in its fragment). */
const SIGN_UP_LINK_LINE = /^(\S+\/embed\/auth#sign-up=\S+)$/m;

/** The link of the sign-up email to `email`, from the running harness's outbox or SMTP inbox. */
export async function signUpLink(email: string): Promise<string> {
  if (runningMail === undefined) throw new Error('No harness is running in this file');
  const { dataDir, inbox } = runningMail;
  if (inbox === undefined) {
    return (await matchFromOutbox(dataDir, email, SIGN_UP_LINK_LINE)).match[1] ?? '';
  }
  const mail = await inbox.waitFor((m) => m.to.includes(email) && SIGN_UP_LINK_LINE.test(m.text));
  return SIGN_UP_LINK_LINE.exec(mail.text)![1]!;
}

/**
 * Signs up through the stream's popup, as a reader does: "Sign up" in the frame, the popup's
 * "Email", "Username", "Password", its "Sign up" button, then the emailed "Code" and "Confirm" —
 * or, `by: 'link'`, the email's link opened in another tab of the browser, whose page finishes
 * it and hands the session to the waiting popup; resolves once the popup has closed.
 * `screenshotAs` saves each filled step first (`test-output/e2e/<name>.png`, `<name>-code.png`).
 */
export async function signUpThroughPopup(
  page: Page,
  account: NewAccount,
  { screenshotAs, by = 'code' }: { screenshotAs?: string; by?: 'code' | 'link' } = {},
): Promise<void> {
  const opened = page.context().waitForEvent('page', { timeout: 10_000 });
  await streamFrame(page).getByRole('button', { name: 'Sign up', exact: true }).click();
  const popup = await opened;
  await popup.waitForLoadState('domcontentloaded');
  await popup.getByLabel('Email', { exact: true }).fill(account.email);
  await popup.getByLabel('Username', { exact: true }).fill(account.username);
  await popup.getByLabel('Password', { exact: true }).fill(account.password);
  if (screenshotAs !== undefined) await screenshot(popup, screenshotAs);
  // The form's own button: a "Sign up" tab or link outside the form must not be the one clicked.
  await popup
    .locator('form')
    .filter({ has: popup.getByLabel('Password', { exact: true }) })
    .getByRole('button', { name: 'Sign up', exact: true })
    .click();
  const code = popup.getByLabel('Code', { exact: true });
  if (by === 'link') {
    await code.waitFor();
    const closed = popup.waitForEvent('close', { timeout: 10_000 });
    const tab = await page.context().newPage();
    await tab.goto(await signUpLink(account.email));
    await tab
      .getByText('Your account is ready and you are signed in where you started.', {
        exact: false,
      })
      .waitFor();
    if (screenshotAs !== undefined) await screenshot(tab, `${screenshotAs}-link`);
    await closed;
    await tab.close();
    return;
  }
  await code.fill(await signUpCode(account.email));
  if (screenshotAs !== undefined) await screenshot(popup, `${screenshotAs}-code`);
  const closed = popup.waitForEvent('close', { timeout: 10_000 });
  await popup.getByRole('button', { name: 'Confirm', exact: true }).click();
  await closed;
}

/**
 * Turns on the Configure → General switch labelled `label` in the console, as the admin, and
 * saves; resolves the console's page (for the journey's `pages`) once it says "Saved.".
 */
export async function switchOnInGeneral(h: Harness, label: string): Promise<TrackedPage> {
  const admin = await h.openConsole('/admin/configure/general');
  await admin.page.getByLabel(label, { exact: true }).check();
  await admin.page.getByRole('button', { name: 'Save', exact: true }).click();
  await admin.page.getByText('Saved.', { exact: true }).waitFor();
  return admin;
}

/**
 * Signs in to the console as `account` (default ADMIN) through its login page ("Email",
 * "Password", "Sign in"), at `parleyUrl` (default: the page's own origin, which must then be
 * Parley's); resolves once the signed-in console shows its navigation.
 */
export async function signInToConsole(
  page: Page,
  account: ConsoleAccount = ADMIN,
  parleyUrl: string = new URL(page.url()).origin,
): Promise<void> {
  const login = `${parleyUrl}/admin/login`;
  if (page.url() !== login) await page.goto(login);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Console', exact: true }).waitFor();
}

/** What {@link installThroughWizard} types into the install wizard. */
export interface WizardInput {
  /** The admin account. @default ADMIN */
  admin?: NewAccount;
  /** The first site's URL (its origin is always permitted): the example site's origin. */
  siteUrl: string;
  /** Permitted origins, one per line; replaces the pre-filled value. @default siteUrl */
  origins?: string;
}

/**
 * Fills the install wizard (`/install`) as a site owner does — admin account, organization,
 * first site — and presses Install; resolves once the done step ("Parley is installed") shows.
 * `screenshotAs` saves each filled step first (`<name>-step1.png` …).
 */
export async function installThroughWizard(
  page: Page,
  { admin = ADMIN, siteUrl, origins = siteUrl }: WizardInput,
  { screenshotAs }: { screenshotAs?: string } = {},
): Promise<void> {
  const step = async (n: number, title: string) => {
    await page.getByRole('heading', { name: `Step ${n} of 3: ${title}`, exact: true }).waitFor();
  };
  const next = async (n: number, button: 'Next' | 'Install') => {
    if (screenshotAs !== undefined) await screenshot(page, `${screenshotAs}-step${n}`);
    await page.getByRole('button', { name: button, exact: true }).click();
  };
  await step(1, 'Your admin account');
  await page.getByLabel('Email', { exact: true }).fill(admin.email);
  await page.getByLabel('Username', { exact: true }).fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(admin.password);
  await next(1, 'Next');
  await step(2, 'Your organization');
  await page.getByLabel('Organization name', { exact: true }).fill('E2E');
  await page.getByLabel('Contact email', { exact: true }).fill('team@e2e.parley.test');
  await page.getByLabel('Organization URL', { exact: true }).fill(siteUrl);
  await next(2, 'Next');
  await step(3, 'Your first site');
  await page.getByLabel('Site name', { exact: true }).fill('Example host');
  await page.getByLabel('Site URL', { exact: true }).fill(siteUrl);
  await page.getByLabel('Permitted origins', { exact: true }).fill(origins);
  await next(3, 'Install');
  await page.getByRole('heading', { name: 'Parley is installed', exact: true }).waitFor();
}

/** Saves a full-page screenshot as `test-output/e2e/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(E2E_OUTPUT, { recursive: true });
  const path = join(E2E_OUTPUT, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Runs a journey's body; whatever happens, screenshots each listed page and writes their logs to
 * `test-output/e2e/<name>.log`. A failure carries the logs in its message, so a broken widget
 * explains itself in the Jest output.
 */
export async function journey(
  name: string,
  body: (pages: TrackedPage[]) => Promise<void>,
  { cspViolations = 'none' }: { cspViolations?: 'none' | 'expected' } = {},
): Promise<void> {
  const pages: TrackedPage[] = [];
  let failure: unknown;
  try {
    await body(pages);
    // Parley's clients send trusted documents only; a production server would refuse text.
    const sent = pages.flatMap((tracked) => tracked.log.filter((l) => l.includes(TEXT_SENT)));
    if (sent.length > 0) throw new Error(`A page sent GraphQL text:\n${sent.join('\n')}`);
    // Every page works within its Content-Security-Policy: a refusal (Chromium says so on the
    // console) means a feature broke, unless the journey is about the refusals.
    const refused = pages.flatMap((tracked) =>
      tracked.log.filter((l) => l.includes('Content Security Policy')),
    );
    if (cspViolations === 'none' && refused.length > 0) {
      throw new Error(`A page broke its Content-Security-Policy:\n${refused.join('\n')}`);
    }
  } catch (error) {
    failure = error;
  }
  const logs: string[] = [];
  for (const [i, tracked] of pages.entries()) {
    const suffix = i === 0 ? '' : `-${i + 1}`;
    if (!tracked.page.isClosed()) {
      await screenshot(tracked.page, `${name}${suffix}`).catch((error: unknown) =>
        logs.push(`(screenshot failed: ${String(error)})`),
      );
    }
    logs.push(`--- page ${i + 1}: ${tracked.page.url()}`, ...tracked.log);
  }
  mkdirSync(E2E_OUTPUT, { recursive: true });
  writeFileSync(join(E2E_OUTPUT, `${name}.log`), logs.join('\n') + '\n');
  await Promise.allSettled(pages.map((p) => p.context.close()));
  if (failure !== undefined) {
    if (failure instanceof Error) {
      // Jest prints the stack, which already holds the message: extend both.
      const missing = missingBuilds();
      if (missing.length > 0) {
        // Another `npm run build` empties dist while it runs: the pages then got 404s.
        logs.unshift(`(the widget build is missing now — a build running meanwhile?)`, ...missing);
      }
      const report = `\n\nWhat the pages reported (test-output/e2e/${name}.log):\n${logs.join('\n')}\n`;
      // Jest prints the stack (which begins with the message) when there is one.
      if (failure.stack?.includes(failure.message)) {
        failure.stack = failure.stack.replace(failure.message, failure.message + report);
      } else {
        failure.message += report;
      }
    }
    throw failure;
  }
}
