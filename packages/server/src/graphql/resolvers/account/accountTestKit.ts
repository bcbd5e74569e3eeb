/** Helpers of the account test suites. Test-only; never imported by the server. */
import type { Api, GraphQLAnswer } from '../../testing/useApi';

/** The code of an answer's first error, or undefined when it has none. */
export function codeOf(answer: GraphQLAnswer): unknown {
  return answer.errors?.[0]?.extensions?.code;
}

/**
 * The token of the newest captured email whose link goes to `path` (e.g.
 * `/account/reset-password`), read from the `#token=` fragment as the account page would.
 */
export function tokenFromMail(api: Api, path: string): string {
  const pattern = new RegExp(`${escape(path)}#token=([A-Za-z0-9_-]+)`);
  for (const message of [...api.mail].reverse()) {
    const match = pattern.exec(message.text);
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`No captured email links to ${path}: ${JSON.stringify(api.mail, null, 2)}`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The fields most account tests read back. */
export const USER_FIELDS = 'id username email emailVerified avatarUrl';
