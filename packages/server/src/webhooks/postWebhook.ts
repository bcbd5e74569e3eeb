/**
 * One webhook request: a POST of the signed body, with the guard against server-side request
 * forgery. An admin types the URL, but a URL is also a way to make this server knock on what only
 * it can reach (a database's admin port, a cloud's metadata address, the router): so unless the
 * admin setting `webhooksAllowPrivateAddresses` allows it, the address a request connects to must
 * be a public unicast one — checked on the addresses DNS answers as the connection is made (not
 * before, so a name that resolves differently the second time changes nothing), and again on every
 * redirect.
 *
 * - At most {@link WEBHOOK_LIMITS.timeoutMs} for the whole request, redirects included.
 * - The answer's body is read up to {@link WEBHOOK_LIMITS.maxResponseBytes}, then the connection
 *   is dropped; its start is kept as the log's excerpt.
 * - Redirects (301, 302, 307, 308) are followed up to {@link WEBHOOK_LIMITS.maxRedirects} times,
 *   posting the same signed body; any other answer is the outcome.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import ipaddr from 'ipaddr.js';
import { ParleyError } from '../ParleyError';

/** The limits of one delivery attempt. */
export const WEBHOOK_LIMITS = Object.freeze({
  /** The whole attempt, redirects included. */
  timeoutMs: 10_000,
  /** The most of an answer's body read. */
  maxResponseBytes: 64 * 1024,
  /** The most of it kept in the log, in characters. */
  excerptChars: 2_000,
  maxRedirects: 3,
});

/** Whether `address` (an IP literal) is one a webhook may reach without the admin's leave. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process(): an IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    // IPv4-compatible (::a.b.c.d, deprecated): where a tunnel routes it, it is that IPv4 address.
    if (parts.slice(0, 6).every((part) => part === 0)) return false;
    // NAT64 (64:ff9b::/96): judged as the IPv4 address it carries.
    if (parsed.range() === 'rfc6052') {
      const [hi = 0, lo = 0] = parts.slice(6);
      return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
  }
  return parsed.range() === 'unicast';
}

function forbidden(host: string, address: string): ParleyError {
  return new ParleyError(
    'INVALID_INPUT',
    `${host} is at ${address}, a loopback, private or reserved address: webhooks go to public ` +
      'addresses unless Configure › Advanced allows private ones.',
    { field: 'url', problem: 'ADDRESS_PRIVATE', host, address },
  );
}

/**
 * Checks a URL an admin gives: absolute http(s), no credentials, and when its host is an IP
 * literal, a public one unless `allowPrivate`. A host name is checked when a request resolves it.
 */
export function checkWebhookUrl(
  text: string,
  allowPrivate: boolean,
  isPublic: (address: string) => boolean = isPublicAddress,
): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ParleyError('INVALID_INPUT', 'Give the endpoint as an absolute http or https URL.', {
      field: 'url',
      problem: 'URL_INVALID',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ParleyError('INVALID_INPUT', 'Give the endpoint as an absolute http or https URL.', {
      field: 'url',
      problem: 'URL_INVALID',
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new ParleyError(
      'INVALID_INPUT',
      'A webhook URL may not carry a user name or password: the signature is how the endpoint knows it is Parley.',
      { field: 'url', problem: 'URL_CREDENTIALS' },
    );
  }
  url.hash = '';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && !isPublic(host)) throw forbidden(host, host);
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for a connection that refuses what `isPublic` does not pass. */
const guardedLookup =
  (isPublic: (address: string) => boolean) =>
  (host: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((a) => !isPublic(a.address));
      if (refused !== undefined) return callback(forbidden(host, refused.address) as never, []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return first === undefined
        ? callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), [])
        : callback(null, first.address, first.family);
    });
  };

/** What an attempt got: an answer (any status), or an error (no answer). */
export interface WebhookResponse {
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/** The request of one URL; resolves the answer with its body read up to the cap. */
function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  guard: ((address: string) => boolean) | undefined,
  signal: AbortSignal,
): Promise<{ response: IncomingMessage; bodyText: string }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal,
        // A connection of its own, every time: a kept-alive one would skip the guarded lookup
        // (made while private addresses were allowed, or to another name of the same host).
        agent: false,
        ...(guard === undefined ? {} : { lookup: guardedLookup(guard) as never }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          response.removeAllListeners('data');
          resolve({ response, bodyText: Buffer.concat(chunks).toString('utf8') });
        };
        response.on('data', (chunk: Buffer) => {
          const room = WEBHOOK_LIMITS.maxResponseBytes - size;
          chunks.push(chunk.subarray(0, Math.max(0, room)));
          size += chunk.length;
          if (size >= WEBHOOK_LIMITS.maxResponseBytes) {
            // Enough read: the rest is not waited for, nor downloaded.
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const REDIRECTS = new Set([301, 302, 307, 308]);

/**
 * POSTs `body` to `url` with `headers` (see the file comment); never throws: a refused address, a
 * time-out or a connection error is the outcome's `error`.
 */
export async function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: {
    allowPrivate: boolean;
    timeoutMs?: number;
    /** Aborts the attempt (a server stopping): its outcome is an error, recorded as any other. */
    signal?: AbortSignal;
    /** Which addresses count as public (tests narrow it). @default isPublicAddress */
    isPublic?: (address: string) => boolean;
  },
): Promise<WebhookResponse> {
  const isPublic = options.isPublic ?? isPublicAddress;
  const guard = options.allowPrivate ? undefined : isPublic;
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? WEBHOOK_LIMITS.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const elapsed = () => Math.round(performance.now() - started);
  try {
    let url = checkWebhookUrl(target, options.allowPrivate, isPublic);
    for (let redirects = 0; ; redirects++) {
      const { response, bodyText } = await postOnce(url, body, headers, guard, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location && redirects < WEBHOOK_LIMITS.maxRedirects) {
        url = checkWebhookUrl(new URL(location, url).toString(), options.allowPrivate, isPublic);
        continue;
      }
      return {
        status,
        durationMs: elapsed(),
        excerpt: bodyText.slice(0, WEBHOOK_LIMITS.excerptChars),
        error: null,
      };
    }
  } catch (error) {
    const timedOut = timeout.aborted;
    return {
      status: null,
      durationMs: elapsed(),
      excerpt: null,
      error: timedOut
        ? `No answer within ${timeoutMs / 1000} s`
        : options.signal?.aborted
          ? 'Cut short: the server was stopping.'
          : error instanceof Error
            ? error.message
            : String(error),
    };
  }
}
