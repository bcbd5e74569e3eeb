import { createHash } from 'node:crypto';
import type { OriginPolicy } from './plugins/originPolicy';
import { CSP_HEADER, normalizeOrigin } from './plugins/originPolicy';

/**
 * The headers of every HTML document the server sends — the stream (framed by the sites), the
 * sign-in popup, the console and the account pages (never framed). The Content-Security-Policy is
 * a second wall behind the comment sanitizer: markup that reached a page some other way runs no
 * script, loads nothing from elsewhere and posts no form elsewhere.
 *
 * - `default-src 'none'`, then only what the pages use: scripts, styles, fonts and images from
 *   the server itself (images also `data:`, and from its public address, where avatars are),
 *   requests to it over HTTP and WebSocket.
 * - Inline code only by hash, and only what the page was written with (the rendered stream's
 *   few inline scripts, its stylesheet and its root's style attribute); its data travels in a
 *   `<script type="application/json">`, which never runs.
 * - The organization's custom stylesheet's origin joins `style-src`, `font-src` and `img-src` on
 *   the stream's pages (a theme's own fonts and images load from beside it).
 * - `frame-ancestors`: the permitted sites for the stream, nobody for the others (with
 *   `X-Frame-Options: DENY` for browsers that predate it); the console is also alone in its
 *   browsing context group (`Cross-Origin-Opener-Policy: same-origin`) — not the popup, whose
 *   opener (the stream's frame) it answers.
 */

/** Sent with every document. */
export const DOCUMENT_HEADERS = Object.freeze({
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  // Nothing of the sort is ever asked for: a planted script could not either.
  'permissions-policy':
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), ' +
    'display-capture=(), browsing-topics=()',
});

/** Inline code a rendered page was written with (the stream's `InlineSources`). */
export interface InlineSources {
  scripts: readonly string[];
  styles: readonly string[];
  styleAttributes: readonly string[];
}

/** What one document is. */
export interface DocumentKind {
  /** The stream's page: framed by the permitted sites, styled by the custom stylesheet. */
  framed: boolean;
  /** The console: alone in its browsing context group (COOP). */
  isolated?: boolean;
  /** Inline code the page was written with. */
  inline?: InlineSources;
  /**
   * The stylesheets a framed page loads besides its own (the custom CSS URL), when the caller
   * knows them; else they are looked up ({@link DocumentSecurityOptions.stylesheets}).
   */
  stylesheets?: readonly string[];
}

/** Options of {@link createDocumentSecurity}. */
export interface DocumentSecurityOptions {
  originPolicy: OriginPolicy;
  /** The server's public address: its WebSocket origin joins `connect-src`. */
  publicUrl?: string;
  /** The stylesheets the stream loads besides its own (the custom CSS URL). @default none */
  stylesheets?: () => Promise<string[]>;
}

/** The headers of each kind of document. */
export interface DocumentSecurity {
  headers(kind: DocumentKind): Promise<Record<string, string>>;
}

/** The CSP source of `text`'s SHA-256. */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export function createDocumentSecurity({
  originPolicy,
  publicUrl,
  stylesheets,
}: DocumentSecurityOptions): DocumentSecurity {
  // The public address may not be the page's own (a server reached under another name, a
  // domain changed since): avatars are stored under it, and the clients talk to it.
  const publicOrigin = publicUrl === undefined ? undefined : normalizeOrigin(publicUrl);
  const socketOrigin = publicOrigin?.replace(/^http/, 'ws');
  // A failed lookup leaves the custom stylesheet out (the page still works).
  const lookUp = async (): Promise<readonly string[]> =>
    (await stylesheets?.().catch(() => [])) ?? [];

  return {
    async headers({ framed, isolated = false, inline, stylesheets: known }) {
      const scripts = inline?.scripts.map(hashSource) ?? [];
      const styles = inline?.styles.map(hashSource) ?? [];
      const attributes = inline?.styleAttributes.map(hashSource) ?? [];
      const ancestors = framed ? ["'self'", ...(await originPolicy.allowedOrigins())] : ["'none'"];
      // The custom stylesheet may load fonts and images of its own, from where it is.
      const custom = framed ? origins(known ?? (await lookUp())) : [];
      const own = publicOrigin ? [publicOrigin] : [];
      const list = (...sources: string[]) => [...new Set(sources)].join(' ');
      const directives = [
        "default-src 'none'",
        `script-src 'self' ${scripts.join(' ')}`,
        `style-src 'self' ${list(...styles, ...custom)}`,
        `style-src-attr ${attributes.length > 0 ? `'unsafe-hashes' ${attributes.join(' ')}` : "'none'"}`,
        `img-src 'self' data: ${list(...own, ...custom)}`,
        `font-src 'self' ${list(...custom)}`,
        `connect-src 'self' ${list(...own, ...(socketOrigin ? [socketOrigin] : []))}`,
        "base-uri 'none'",
        "form-action 'self'",
        `frame-ancestors ${ancestors.join(' ')}`,
      ].map((directive) => directive.trim());
      return {
        [CSP_HEADER]: directives.join('; '),
        ...DOCUMENT_HEADERS,
        ...(framed ? {} : { 'x-frame-options': 'DENY' }),
        ...(isolated ? { 'cross-origin-opener-policy': 'same-origin' } : {}),
      };
    },
  };
}

/** The distinct origins of `urls` (anything not an http(s) URL left out). */
function origins(urls: readonly string[]): string[] {
  return [...new Set(urls.map(normalizeOrigin).filter((o): o is string => o !== undefined))];
}
