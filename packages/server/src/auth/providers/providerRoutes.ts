/**
 * The HTTP side of provider sign-in, under `/auth/providers/`:
 *
 * - `GET <id>/start?site=…|story=…&locale=…&theme=…[&connect=…]`: the popup's button goes here
 *   (the site by id, or by a story URL it permits); it sets
 *   the flow's state cookie and sends the popup on to the provider;
 * - `GET <id>/callback`: the provider sends the popup back here; it goes on to the popup page
 *   (`/embed/auth`) with a one-time code to redeem, or with the error's code;
 * - `GET link?key=…` then `POST link`: the emailed link that connects a provider account to the
 *   account whose address it gave (a page with a button: mail scanners that open links connect
 *   nothing).
 */
import { ipKey } from '../../graphql/context';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AUTH_PATH } from '@parley/contract';
import { escapeHtml } from '../../markdown/renderComment';
import { ParleyError } from '../../ParleyError';
import type { RateLimiter } from '../../rateLimit/createRateLimiter';
import type { PopupLook } from '../../db/store/signInFlows';
import { siteIdOf } from '../../db/store/signInProviders';
import { FLOW_SECONDS } from '../../db/store/signInFlows';
import {
  PROVIDERS_PREFIX,
  STATE_COOKIE,
  callbackUrl,
  connectByEmailedLink,
  finishProviderSignIn,
  startProviderSignIn,
} from './providerSignIn';
import type { ProviderSignInDeps } from './providerSignIn';

/** Answers a request under `/auth/providers/`; false when the path is none of its routes. */
export type ProviderRoutes = (
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  ip: string | undefined,
) => Promise<boolean>;

/** What the routes need besides the sign-in's own dependencies. */
export interface ProviderRoutesDeps extends ProviderSignInDeps {
  rateLimiter: RateLimiter;
}

/** The largest body the link's form posts, in bytes. */
const FORM_MAX_BYTES = 4096;
const LOCALE = /^[a-z]{2}(-[A-Z]{2})?$/;

/** Longest story URL carried back to the popup. */
const STORY_MAX_LENGTH = 2048;

/** The popup's look from a query, each value checked (they go back into a URL). */
function lookOf(query: URLSearchParams): PopupLook {
  const locale = query.get('locale') ?? '';
  const story = query.get('story') ?? '';
  return {
    locale: LOCALE.test(locale) ? locale : 'en',
    theme: query.get('theme') === 'dark' ? 'dark' : 'light',
    ...(/^https?:\/\//.test(story) && story.length <= STORY_MAX_LENGTH ? { story } : {}),
  };
}

function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Builds the routes. */
export function createProviderRoutes(deps: ProviderRoutesDeps): ProviderRoutes {
  const secure = new URL(deps.publicUrl).protocol === 'https:';
  const cookie = (value: string, maxAge: number) =>
    `${STATE_COOKIE}=${value}; Path=${PROVIDERS_PREFIX}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  const toPopup = (
    res: ServerResponse,
    look: PopupLook | undefined,
    extra: Record<string, string>,
    clearCookie = false,
  ) => {
    const query = new URLSearchParams({ ...(look ?? { locale: 'en', theme: 'light' }), ...extra });
    res
      .writeHead(303, {
        location: `${AUTH_PATH}?${query}`,
        'cache-control': 'no-store',
        ...(clearCookie ? { 'set-cookie': cookie('', 0) } : {}),
      })
      .end();
  };

  return async (req, res, pathname, ip) => {
    if (!pathname.startsWith(PROVIDERS_PREFIX)) return false;
    const rest = pathname.slice(PROVIDERS_PREFIX.length);
    const url = new URL(req.url ?? pathname, deps.publicUrl);
    if (rest === 'link') {
      await linkPage(req, res, url);
      return true;
    }
    const match = /^([^/]+)\/(start|callback)$/.exec(rest);
    // GET only: a HEAD (a link checker's) would start a flow, or take one.
    if (match === null || req.method !== 'GET') return false;
    const providerId = decodeURIComponent(match[1] ?? '');
    if (match[2] === 'start') {
      const look = lookOf(url.searchParams);
      try {
        await deps.rateLimiter.consume('providerSignIn', ipKey({ ip }));
        const started = await startProviderSignIn(deps, {
          providerId,
          siteId:
            (await siteIdOf(deps.db, {
              siteId: url.searchParams.get('site'),
              storyURL: url.searchParams.get('story'),
            })) ?? '',
          popup: look,
          connectTicket: url.searchParams.get('connect') ?? undefined,
        });
        res
          .writeHead(303, {
            location: started.authorizationUrl.href,
            'cache-control': 'no-store',
            'set-cookie': cookie(started.state, FLOW_SECONDS.started),
          })
          .end();
      } catch (error) {
        if (!(error instanceof ParleyError)) {
          deps.logger.warn(
            { err: error, provider: providerId },
            'A provider sign-in could not start',
          );
        }
        const code = error instanceof ParleyError ? error.code : 'SIGN_IN_PROVIDER_UNREACHABLE';
        toPopup(res, look, { error: code });
      }
      return true;
    }
    // The provider's answer, read against the address registered with it.
    const callback = new URL(`${callbackUrl(deps.publicUrl, providerId)}${url.search}`);
    const finished = await finishProviderSignIn(deps, {
      providerId,
      callback,
      cookieState: readCookie(req, STATE_COOKIE),
      ip,
    });
    // A connection from the profile goes back to the frame that asked (connect_code), which
    // redeems it signed in; anything else the popup redeems (provider_code).
    const param = finished.ok && finished.result === 'connect' ? 'connect_code' : 'provider_code';
    if (finished.ok) toPopup(res, finished.popup, { [param]: finished.code }, true);
    else toPopup(res, finished.popup, { error: finished.error.code }, true);
    return true;
  };

  async function linkPage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === 'POST') {
      const key = new URLSearchParams(await readForm(req)).get('key') ?? '';
      try {
        const provider = await connectByEmailedLink(deps, key);
        page(
          res,
          200,
          'Connected',
          `Your ${provider.name} account is now connected: use “Continue with ${provider.name}” to sign in.`,
        );
      } catch (error) {
        if (!(error instanceof ParleyError)) throw error;
        page(res, 400, 'Not connected', error.message);
      }
      return;
    }
    const key = url.searchParams.get('key') ?? '';
    page(
      res,
      200,
      'Connect your account',
      'Connect the sign-in provider to your account?',
      `<form method="post" action="${PROVIDERS_PREFIX}link"><input type="hidden" name="key" value="${escapeHtml(key)}"><button type="submit">Connect</button></form>`,
    );
  }
}

async function readForm(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_MAX_BYTES) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A small page of its own: no script, nothing from elsewhere. */
function page(res: ServerResponse, status: number, title: string, text: string, extra = ''): void {
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${extra}</body></html>`,
    );
}
