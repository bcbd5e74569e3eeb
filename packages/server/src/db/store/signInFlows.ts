/**
 * Provider sign-ins under way (auth/providers/providerRoutes.ts). Each step is keyed by a random
 * value the browser holds and only its SHA-256 is stored, and each is taken once:
 *
 * - `started`: keyed by the `state` sent to the provider (and kept in the popup's cookie), with
 *   the PKCE verifier and the nonce, until the provider sends the reader back (10 minutes);
 * - `finished`: keyed by the code the popup redeems for a session (2 minutes), holding what the
 *   sign-in came to;
 * - `emailed`: a connection waiting for the link emailed to the account's address (1 hour).
 */
import { randomBytes } from 'node:crypto';
import { isoTime, parseJson } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { SignInFlowsTable } from '../schema';
import { hashToken } from './tokens';

/**
 * How long each stage lasts, in seconds: a finished flow waits for a password to be found and
 * typed (an account to prove) as long as a started one waits for the provider.
 */
export const FLOW_SECONDS = { started: 600, finished: 600, emailed: 3600 } as const;

/** What a finished flow hands the popup. */
export type FlowResult =
  /** Signed in as this user (made now, or connected before). */
  | { kind: 'signedIn'; userId: string }
  /**
   * The provider's verified address is an account's here, not connected to this provider yet:
   * its owner proves it (its password, or an emailed link; only the link when it has no
   * password) before the two are connected.
   */
  | { kind: 'linkRequired'; userId: string; subject: string; email: string; hasPassword: boolean }
  /**
   * A signed-in user asked to connect this provider (from the profile): connected when the
   * frame, signed in as that user, redeems the code; never by the popup alone.
   */
  | { kind: 'connect'; userId: string; subject: string; email: string | null };

/**
 * The popup as it was opened, carried across the provider's pages: its look, and the story whose
 * site's providers it offers again after an error.
 */
export interface PopupLook {
  locale: string;
  theme: string;
  story?: string;
}

/** A flow as the routes and resolvers see it. */
export interface SignInFlow {
  providerId: string;
  siteId: string;
  codeVerifier: string;
  nonce: string;
  connectUserId: string | null;
  popup: PopupLook;
  result: FlowResult | null;
  expiresAt: string;
}

function toFlow(row: SignInFlowsTable): SignInFlow {
  return {
    providerId: row.provider_id,
    siteId: row.site_id,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    connectUserId: row.connect_user_id,
    popup: parseJson<PopupLook>(row.popup, { locale: 'en', theme: 'light' }),
    result: parseJson<FlowResult | null>(row.result, null),
    expiresAt: row.expires_at,
  };
}

/** A fresh random key: 32 bytes, base64url. */
function newKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Stores a flow at `stage` under a new key and answers the key (the only copy in clear). Expired
 * flows of every stage go at the same time: the table holds only what is under way.
 */
export async function storeFlow(
  db: Db,
  stage: SignInFlowsTable['stage'],
  flow: Omit<SignInFlow, 'expiresAt'>,
  now: Date,
): Promise<string> {
  const key = newKey();
  await db.deleteFrom('sign_in_flows').where('expires_at', '<=', isoTime(now)).execute();
  await db
    .insertInto('sign_in_flows')
    .values({
      key_hash: hashToken(key),
      stage,
      provider_id: flow.providerId,
      site_id: flow.siteId,
      code_verifier: flow.codeVerifier,
      nonce: flow.nonce,
      connect_user_id: flow.connectUserId,
      user_id: flow.result?.userId ?? flow.connectUserId,
      popup: JSON.stringify(flow.popup),
      result: flow.result === null ? null : JSON.stringify(flow.result),
      expires_at: isoTime(new Date(now.getTime() + FLOW_SECONDS[stage] * 1000)),
    })
    .execute();
  return key;
}

/**
 * Takes the flow at `stage` under `key` once: it is deleted in the same statement, so of two
 * concurrent takers one gets it. Unknown, taken or expired: undefined.
 */
export async function takeFlow(
  db: Db,
  stage: SignInFlowsTable['stage'],
  key: string,
  now: Date,
): Promise<SignInFlow | undefined> {
  const row = await db
    .deleteFrom('sign_in_flows')
    .where('key_hash', '=', hashToken(key))
    .where('stage', '=', stage)
    .returningAll()
    .executeTakeFirst();
  if (row === undefined || row.expires_at <= isoTime(now)) return undefined;
  return toFlow(row);
}

/** Reads the flow at `stage` under `key` without taking it; undefined when unknown or expired. */
export async function peekFlow(
  db: Db,
  stage: SignInFlowsTable['stage'],
  key: string,
  now: Date,
): Promise<SignInFlow | undefined> {
  const row = await db
    .selectFrom('sign_in_flows')
    .selectAll()
    .where('key_hash', '=', hashToken(key))
    .where('stage', '=', stage)
    .where('expires_at', '>', isoTime(now))
    .executeTakeFirst();
  return row && toFlow(row);
}
