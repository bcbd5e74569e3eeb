/**
 * Address ranges moderators ban for a time (issue 17): guests sessions, guest posts and sign-ups
 * from them are refused with `IP_BANNED` until the ban expires or is lifted. Ranges are CIDR,
 * parsed and matched with ipaddr.js; an IPv4 address seen as IPv6 (`::ffff:203.0.113.7`, as a
 * dual-stack socket reports it) is matched as IPv4.
 */
import ipaddr from 'ipaddr.js';
import { isoTime, newId } from '../inTransaction';
import type { Db } from '../inTransaction';
import type { Selectable } from 'kysely';
import type { IpBansTable } from '../schema';
import { ParleyError } from '../../ParleyError';
import { paginate } from './paginate';
import type { Connection, PageArgs } from './paginate';

/** Widest range a ban may cover: a /16 of IPv4 (65,536 addresses), a /32 of IPv6. */
export const WIDEST_BAN_PREFIX = Object.freeze({ ipv4: 16, ipv6: 32 });

/** A range ban as the resolvers see it. */
export interface IpBan {
  id: string;
  range: string;
  reason: string;
  expiresAt: string;
  createdBy: string | null;
  createdAt: string;
  liftedAt: string | null;
}

function toIpBan(row: Selectable<IpBansTable>): IpBan {
  return {
    id: row.id,
    range: row.range,
    reason: row.reason,
    expiresAt: row.expires_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    liftedAt: row.lifted_at,
  };
}

/** Whether a ban refuses addresses at `now`. */
export function isActiveBan(ban: Pick<IpBan, 'expiresAt' | 'liftedAt'>, now: Date): boolean {
  return ban.liftedAt === null && new Date(ban.expiresAt) > now;
}

/** Whether `text` is an IP address (either family). */
export function isAddress(text: string): boolean {
  return ipaddr.isValid(text);
}

/**
 * The network a rate limit counts for an address: an IPv6 address by its /64 (one subscriber's
 * line, whose 2⁶⁴ addresses would otherwise each be a fresh bucket), anything else as it is.
 */
export function rateLimitNetwork(text: string): string {
  const parsed = address(text);
  if (parsed === null || parsed.kind() === 'ipv4') return parsed?.toString() ?? text;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/** An address as matched: IPv4 seen through IPv6 is IPv4. Null when it does not parse. */
function address(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return ipaddr.isValid(text) ? ipaddr.process(text) : null;
}

/**
 * A range as typed (`203.0.113.0/24`, `2001:db8::/48`, or one address) in the form stored: the
 * network address and its prefix. `INVALID_INPUT` (field `range`) for anything else, a range
 * wider than {@link WIDEST_BAN_PREFIX}, or an IPv4 address in a shorthand (`10.1`).
 */
export function normalizeRange(input: string): string {
  const text = input.trim();
  const invalid = (message: string) =>
    new ParleyError('INVALID_INPUT', message, { field: 'range' });
  const [host = '', prefixText, ...rest] = text.split('/');
  const parsed = address(host);
  const strictIpv4 = !host.includes(':') ? ipaddr.IPv4.isValidFourPartDecimal(host) : true;
  if (parsed === null || !strictIpv4 || rest.length > 0) {
    throw invalid('Give an address or a range such as 203.0.113.0/24 or 2001:db8::/48.');
  }
  const bits = parsed.kind() === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(bits)) || prefix > bits) {
    throw invalid(`The prefix after / is 0 to ${bits}.`);
  }
  const widest = parsed.kind() === 'ipv4' ? WIDEST_BAN_PREFIX.ipv4 : WIDEST_BAN_PREFIX.ipv6;
  if (prefix < widest) {
    throw invalid(
      `A ban covers at most a /${widest} (${parsed.kind() === 'ipv4' ? 'IPv4' : 'IPv6'}).`,
    );
  }
  const network =
    parsed.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`);
  return `${network.toString()}/${prefix}`;
}

/**
 * The range a moderator would ban for a guest's address: the /24 of IPv4 (a home or office
 * network), the /64 of IPv6 (one subscriber's). Null when the address does not parse.
 */
export function suggestedRange(ip: string): string | null {
  const parsed = address(ip);
  if (parsed === null) return null;
  return normalizeRange(`${parsed.toString()}/${parsed.kind() === 'ipv4' ? 24 : 64}`);
}

/** Whether `ip` is in `range` (as {@link normalizeRange} stores it). */
export function rangeHolds(range: string, ip: string): boolean {
  const parsed = address(ip);
  if (parsed === null) return false;
  const [network, prefix] = ipaddr.parseCIDR(range);
  return parsed.kind() === network.kind() && parsed.match(network, prefix);
}

/** Stores a ban of `range` (already normalized) until `expiresAt`. */
export async function createIpBan(
  db: Db,
  input: { range: string; reason: string; expiresAt: Date; createdBy: string | null; now: Date },
): Promise<IpBan> {
  const row = await db
    .insertInto('ip_bans')
    .values({
      id: newId(),
      range: input.range,
      reason: input.reason,
      expires_at: isoTime(input.expiresAt),
      created_by: input.createdBy,
      created_at: isoTime(input.now),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toIpBan(row);
}

/** Ends a ban now (a lifted or expired one stays as it was); `NOT_FOUND` for an unknown id. */
export async function liftIpBan(db: Db, id: string, now: Date): Promise<IpBan> {
  const row = await db
    .updateTable('ip_bans')
    .set({ lifted_at: isoTime(now) })
    .where('id', '=', id)
    .where('lifted_at', 'is', null)
    .where('expires_at', '>', isoTime(now))
    .returningAll()
    .executeTakeFirst();
  if (row !== undefined) return toIpBan(row);
  const existing = await db
    .selectFrom('ip_bans')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (existing === undefined) {
    throw new ParleyError('NOT_FOUND', 'There is no such ban.', { field: 'id' });
  }
  return toIpBan(existing);
}

/** The bans, newest first (the console marks which are in force). */
export function listIpBans(db: Db, args: PageArgs): Promise<Connection<IpBan>> {
  return paginate(
    db.selectFrom('ip_bans').selectAll(),
    [
      { column: 'created_at', field: 'created_at', direction: 'desc' },
      { column: 'id', field: 'id', direction: 'desc' },
    ],
    args,
    toIpBan,
  );
}

/**
 * The latest end of the bans in force over `ip`, or null when none holds it. Reads the bans in
 * force (a short list: each lives at most a year and covers at most a /16) and matches them here,
 * as SQL has no portable address type.
 */
export async function bannedUntil(db: Db, ip: string, now: Date): Promise<string | null> {
  const rows = await db
    .selectFrom('ip_bans')
    .select(['range', 'expires_at'])
    .where('lifted_at', 'is', null)
    .where('expires_at', '>', isoTime(now))
    .execute();
  let until: string | null = null;
  for (const row of rows) {
    if (rangeHolds(row.range, ip) && (until === null || row.expires_at > until)) {
      until = row.expires_at;
    }
  }
  return until;
}

/** `IP_BANNED` (with `until`, the ban's end) when a ban in force holds `ip`. */
export async function refuseBanned(db: Db, ip: string, now: Date): Promise<void> {
  const until = await bannedUntil(db, ip, now);
  if (until !== null) {
    throw new ParleyError('IP_BANNED', 'Your network is barred from this for now.', { until });
  }
}
