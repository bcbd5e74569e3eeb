import { randomUUID } from 'node:crypto';
// The example host site: a server on its own origin (its own port) that embeds Parley the way a
// site owner would. `npm start` runs it next to Parley; the browser tests start it on a free port.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { directionOf } from '@parley/contract';

/** One article of the example site. */
export interface ExampleArticle {
  /** Path on the example origin, e.g. `/articles/second`. */
  path: string;
  /** Headline, also the story's title. */
  title: string;
}

/** The host site's own signed-in reader on `/sso` (the claims Parley's SSO expects). */
export interface ExampleSsoUser {
  /** The host's id for the user. */
  id: string;
  /** Email address. */
  email: string;
  /** Username shown next to their comments. */
  username: string;
}

/** Articles the list page shows (the first is `/`, the page `npm start` prints). */
export const EXAMPLE_ARTICLES: readonly ExampleArticle[] = Object.freeze([
  { path: '/', title: 'An example article' },
  { path: '/articles/second', title: 'A second article' },
  { path: '/articles/third', title: 'A third article' },
]);

/** The reader the SSO page signs a token for. */
export const EXAMPLE_SSO_USER: ExampleSsoUser = Object.freeze({
  id: 'host-user-1',
  email: 'hostreader@example-host.test',
  username: 'hostreader',
});

/** How long a token the SSO page signs is valid, in seconds. */
export const EXAMPLE_SSO_TOKEN_SECONDS = 3600;

/** Name of the file in the data folder where `npm run demo` leaves the demo site's SSO secret. */
export const EXAMPLE_SSO_SECRET_FILE = 'example-sso-secret';

/** Name of the file in the data folder where `npm run demo` leaves the demo site's id. */
export const EXAMPLE_SITE_ID_FILE = 'example-site-id';

/** Options of {@link createExampleServer}. */
export interface ExampleServerOptions {
  /** The Parley server's public URL, without a trailing slash. */
  parleyUrl: string;
  /** Folder of the page templates (`index.html`, `list.html`, `sso.html`, `example.css`). */
  pagesDir: string;
  /**
   * The site's SSO signing secret, or a function asked on every `/sso` request (the demo writes
   * its key after the server may have started). Without one `/sso` explains how to get one.
   * @default undefined
   */
  ssoSecret?: string | (() => string | undefined | Promise<string | undefined>);
  /**
   * The site's id in Parley, or a function asked on every `/list` request: `/list` then shows the
   * site's latest comments (recent.js). Without one it leaves them out.
   * @default undefined
   */
  siteId?: string | (() => string | undefined | Promise<string | undefined>);
  /** The reader `/sso` signs in. @default EXAMPLE_SSO_USER */
  ssoUser?: ExampleSsoUser;
  /** Articles listed on `/list`. @default EXAMPLE_ARTICLES */
  articles?: readonly ExampleArticle[];
  /**
   * The React example app's folder (`index.html`, and `dist/` once built), served under `/app`.
   * @default `../react-app` beside `pagesDir`
   */
  reactAppDir?: string;
  /**
   * Whether article pages include the story's comments as HTML from Parley's server (what a
   * site does for search engines; embed.js replaces them with the frame). @default true
   */
  commentsHtml?: boolean;
  /** Clock, for token times. @default () => new Date() */
  now?: () => Date;
}

/** Signs an SSO token (HS256) the way a host's server does; `expired` makes one already past. */
export async function signSsoToken(
  secret: string,
  user: ExampleSsoUser,
  { now = new Date(), expired = false }: { now?: Date; expired?: boolean } = {},
): Promise<string> {
  const seconds = Math.floor(now.getTime() / 1000);
  // An expired token: issued two hours ago, valid for one — what a tab left open overnight holds.
  const iat = expired ? seconds - 2 * EXAMPLE_SSO_TOKEN_SECONDS : seconds;
  return (
    new SignJWT({ user: { ...user } })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + EXAMPLE_SSO_TOKEN_SECONDS)
      // Parley exchanges each token once: a random id keeps two pages rendered in the same second
      // from carrying the same token.
      .setJti(randomUUID())
      .sign(new TextEncoder().encode(secret))
  );
}

/** How long an article page waits for its comments' HTML, in ms. */
const COMMENTS_HTML_TIMEOUT_MS = 2000;

const HTML = 'text/html; charset=utf-8';
const SLUG = /^\/articles\/([a-z0-9-]{1,64})\/?$/;
/** The React example's built files: `app.js` and its chunks (names rollup gives). */
const REACT_APP_FILE = /^\/app\/((?:chunks\/)?[\w-]+\.js)$/;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** A value for inside an inline `<script>`: JSON that cannot close the script element. */
const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Creates the example host site's server (not listening yet): `/` and `/articles/:slug` article
 * pages with the pasted snippet, `/list` with comment counts (count.js) and the latest comments
 * (recent.js, when the site's id is known), `/sso` signed in through
 * the host's own SSO token (`?expired=1`: an already-expired one, and no way to refresh it;
 * `?expired=1&refresh=1`: the host can refresh it), `/sso/token` a fresh token for
 * `refreshAccessToken`. Every page's story URL is its canonical link: origin and path, no query.
 */
export function createExampleServer(options: ExampleServerOptions): Server {
  const {
    parleyUrl,
    pagesDir,
    ssoSecret,
    siteId,
    ssoUser = EXAMPLE_SSO_USER,
    articles = EXAMPLE_ARTICLES,
    now = () => new Date(),
    commentsHtml: includeComments = true,
    reactAppDir = join(pagesDir, '..', 'react-app'),
  } = options;

  const template = async (name: string, values: Record<string, string>) => {
    let html = await readFile(join(pagesDir, name), 'utf8');
    for (const [key, value] of Object.entries({ PARLEY_URL: parleyUrl, ...values })) {
      // A function, not the text: `$'` or `$&` in a value (a comment's text) would be patterns.
      html = html.replaceAll(`%${key}%`, () => value);
    }
    return html;
  };
  /**
   * The story's comments as HTML, included in the page as a site's server would, for search
   * engines and readers without JavaScript (embed.js replaces them with the frame). Nothing when
   * Parley does not answer in time: the page never waits long on its comments.
   */
  const commentsHtml = async (storyUrl: string) => {
    if (!includeComments) return '';
    try {
      const answer = await fetch(
        `${parleyUrl}/api/stories/comments.html?url=${encodeURIComponent(storyUrl)}`,
        { signal: AbortSignal.timeout(COMMENTS_HTML_TIMEOUT_MS) },
      );
      return answer.ok ? await answer.text() : '';
    } catch {
      return '';
    }
  };
  const secret = async () => (typeof ssoSecret === 'function' ? ssoSecret() : ssoSecret);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The Host header is what the browser used, so links and story URLs match its address bar
    // (127.0.0.1 or localhost). Anything odd in it falls back to the socket's own address.
    const hostHeader = req.headers.host ?? '';
    const host = /^[\w.-]+(:\d+)?$|^\[[\d:a-f]+\](:\d+)?$/i.test(hostHeader)
      ? hostHeader
      : `${req.socket.localAddress}:${req.socket.localPort}`;
    const origin = `http://${host}`;
    const url = new URL(req.url ?? '/', origin);
    const canonical = escapeHtml(`${origin}${url.pathname}`);
    const send = (status: number, type: string, body: string) =>
      void res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);

    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'GET only');

    // `?lang=ar`: the page in another language, as a site's own would say it (`<html lang>`):
    // the thread and the counts follow it (the site's setting aside). Right to left for Arabic and
    // Hebrew, as such a site would be.
    const langTag = url.searchParams.get('lang') ?? '';
    const lang = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(langTag) ? langTag : 'en';
    const dir = directionOf(lang);
    const slug = SLUG.exec(url.pathname)?.[1];
    if (url.pathname === '/' || slug !== undefined) {
      const title =
        articles.find((a) => a.path === url.pathname)?.title ??
        (slug ?? '').replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
      return send(
        200,
        HTML,
        await template('index.html', {
          TITLE: escapeHtml(title),
          LANG: lang,
          DIR: dir,
          CANONICAL: canonical,
          COMMENTS_HTML: await commentsHtml(`${origin}${url.pathname}`),
        }),
      );
    }
    // The React example: its script (and chunks) from the build; every other path under /app is
    // one of its routes, the same page (the app routes in the browser).
    if (url.pathname === '/app' || url.pathname.startsWith('/app/')) {
      const file = REACT_APP_FILE.exec(url.pathname)?.[1];
      if (file !== undefined) {
        const source = await readFile(join(reactAppDir, 'dist', file), 'utf8').catch(() => null);
        if (source === null) return send(404, 'text/plain', 'Not built: run `npm run build`');
        return send(200, 'text/javascript; charset=utf-8', source);
      }
      const page = await readFile(join(reactAppDir, 'index.html'), 'utf8');
      return send(200, HTML, page.replaceAll('%PARLEY_URL%', escapeHtml(parleyUrl)));
    }
    if (url.pathname === '/list' || url.pathname === '/list.html') {
      const items = articles
        .map(
          (a) =>
            `<li><a href="${escapeHtml(a.path)}">${escapeHtml(a.title)}</a> · ` +
            `<span class="parley-count" data-story-url="${escapeHtml(origin + a.path)}"></span></li>`,
        )
        .join('\n      ');
      const site = typeof siteId === 'function' ? await siteId() : siteId;
      // The site's latest comments, with the site's own text until they arrive (or if none).
      const recent = site
        ? `<h2>Latest comments</h2>\n    <div class="parley-recent" data-site="${escapeHtml(site)}" data-count="5">` +
          `<p>No comments yet.</p></div>\n    <script src="${escapeHtml(parleyUrl)}/recent.js" async></script>`
        : '';
      return send(
        200,
        HTML,
        await template('list.html', { ARTICLES: items, RECENT: recent, LANG: lang, DIR: dir }),
      );
    }
    if (url.pathname === '/sso' || url.pathname === '/sso/token') {
      const key = await secret();
      if (key === undefined || key === '') {
        return send(
          503,
          'text/plain; charset=utf-8',
          'This example has no SSO key for its site yet. `npm run demo` creates one (and ' +
            `writes it to ${EXAMPLE_SSO_SECRET_FILE} in the data folder); restart is not needed.`,
        );
      }
      // Only the page may pass an expired token: /sso/token is what refreshAccessToken fetches.
      const expired = url.pathname === '/sso' && url.searchParams.get('expired') === '1';
      const refresh = !expired || url.searchParams.get('refresh') === '1';
      const token = await signSsoToken(key, ssoUser, { now: now(), expired });
      if (url.pathname === '/sso/token') return send(200, 'text/plain; charset=utf-8', token);
      return send(
        200,
        HTML,
        await template('sso.html', {
          CANONICAL: canonical,
          USERNAME: escapeHtml(ssoUser.username),
          ACCESS_TOKEN: scriptValue(token),
          // Without `refresh=1`, an expired page stands for a host whose own session is over.
          REFRESH_OPTION: refresh ? 'refreshAccessToken,' : '',
          NOTICE:
            expired && !refresh
              ? '<p class="notice">This page passed an <strong>expired</strong> token on purpose: ' +
                'Parley should say so instead of signing the reader in.</p>'
              : '',
        }),
      );
    }
    // Browsers ask for it on every page; a 404 would only add noise to the tests' console logs.
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (url.pathname === '/example.css') {
      return send(
        200,
        'text/css; charset=utf-8',
        await readFile(join(pagesDir, 'example.css'), 'utf8'),
      );
    }
    send(404, 'text/plain', 'Not found');
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('The example host page failed:', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
}
