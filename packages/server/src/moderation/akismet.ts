/**
 * Akismet, when `AKISMET_API_KEY` is set (off by default): its verdict on a new comment joins the
 * local spam score (moderation/spam.ts), and moderators' spam and not-spam decisions on comments
 * it judged are reported back to it.
 *
 * Written here on `fetch` rather than with the `akismet-api` package: that package addresses
 * Akismet as `<key>.rest.akismet.com` (so it cannot be pointed at a local stand-in, which is how
 * this is tested), has no time-out, and brings superagent and bluebird. Akismet's API is three
 * form-encoded POSTs (https://akismet.com/developers/): `comment-check` answers `true` (spam) or
 * `false`, with the header `X-akismet-pro-tip: discard` for the blatant; `submit-spam` and
 * `submit-ham` answer a thank-you; anything else carries `X-akismet-debug-help`.
 */

import { isPlaceholderAddress } from '../db/store/users';

/** What Akismet said of a comment. */
export type AkismetVerdict = 'ham' | 'spam' | 'discard';

/** What Akismet said of a new comment, and the address and browser it judged (kept to report back). */
export interface AkismetJudgement {
  verdict: AkismetVerdict;
  userIp: string;
  userAgent: string;
}

/** The request Akismet judges, as it names its fields. */
export interface AkismetComment {
  /** The commenter's IP address (required by Akismet). */
  user_ip: string;
  user_agent: string;
  referrer?: string;
  /** The story's URL. */
  permalink: string;
  /** `comment` or `reply`. */
  comment_type: 'comment' | 'reply';
  comment_author: string;
  comment_author_email?: string;
  comment_content: string;
  comment_date_gmt: string;
  blog_lang?: string;
}

/** Akismet's three calls, bound to a key and a site. */
export interface AkismetClient {
  check(comment: AkismetComment): Promise<AkismetVerdict>;
  /** Reports a moderator's decision on a comment Akismet judged otherwise. */
  submit(kind: 'spam' | 'ham', comment: AkismetComment): Promise<void>;
}

/** Options of {@link createAkismetClient}. */
export interface AkismetOptions {
  apiKey: string;
  /** `AKISMET_URL`; a stand-in in tests. @default 'https://rest.akismet.com' */
  url?: string;
  /** The site the comments are on (Akismet's `blog`): Parley's public URL. */
  blog: string;
  /** Longest wait for an answer: a post waits for the check. @default 2000 */
  timeoutMs?: number;
}

/** An answer Akismet gave that is not one of its documented ones. */
export class AkismetError extends Error {
  override name = 'AkismetError';
}

/** Akismet's client (see the file comment). */
export function createAkismetClient(options: AkismetOptions): AkismetClient {
  const base = `${(options.url ?? 'https://rest.akismet.com').replace(/\/+$/, '')}/1.1/`;
  const timeoutMs = options.timeoutMs ?? 2000;
  const call = async (path: string, comment: AkismetComment) => {
    const body = new URLSearchParams({ api_key: options.apiKey, blog: options.blog });
    for (const [name, value] of Object.entries(comment)) {
      if (value !== undefined) body.set(name, String(value));
    }
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = (await response.text()).trim();
    const help = response.headers.get('x-akismet-debug-help');
    return { ok: response.ok, text, help, tip: response.headers.get('x-akismet-pro-tip') };
  };
  return {
    async check(comment) {
      const answer = await call('comment-check', comment);
      if (answer.ok && answer.text === 'true') return answer.tip === 'discard' ? 'discard' : 'spam';
      if (answer.ok && answer.text === 'false') return 'ham';
      throw new AkismetError(`Akismet comment-check: ${answer.help ?? answer.text.slice(0, 200)}`);
    },
    async submit(kind, comment) {
      const answer = await call(kind === 'spam' ? 'submit-spam' : 'submit-ham', comment);
      if (!answer.ok || !answer.text.startsWith('Thanks')) {
        throw new AkismetError(
          `Akismet submit-${kind}: ${answer.help ?? answer.text.slice(0, 200)}`,
        );
      }
    },
  };
}

/** The fields Akismet judges a Parley comment by. */
export function akismetComment(
  author: { username: string; email: string; guest?: boolean },
  permalink: string,
  body: string,
  parentId: string | null,
  userIp: string,
  userAgent: string,
  at: Date,
): AkismetComment {
  return {
    user_ip: userIp,
    user_agent: userAgent,
    permalink,
    comment_type: parentId === null ? 'comment' : 'reply',
    comment_author: author.username,
    // A guest without an address has a placeholder: no address, for Akismet.
    ...(isPlaceholderAddress(author.email) ? {} : { comment_author_email: author.email }),
    comment_content: body,
    comment_date_gmt: at.toISOString(),
  };
}
