import type { IncomingMessage } from 'node:http';
import { isAddress } from '../db/store/ipBans';

/** Most proxy hops `TRUST_PROXY` may name. */
export const MAX_TRUSTED_PROXIES = 10;

/**
 * The caller's address, for per-IP rate limits. Behind proxies (a load balancer, a TLS
 * terminator), the socket's peer is the last proxy: with `trustedProxies` hops, the caller is the
 * address that many entries from the right of `X-Forwarded-For` (each proxy appends the address it
 * saw). Entries further left are whatever the client sent and are never trusted — taking the
 * left-most one would let anyone pick their own rate-limit bucket.
 */
export function clientIp(request: IncomingMessage, trustedProxies: number): string | undefined {
  const peer = request.socket.remoteAddress;
  if (trustedProxies <= 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chain = [...forwarded, ...(peer === undefined ? [] : [peer])];
  // chain = [client?, …, proxy1, peer]; the caller sits `trustedProxies` steps left of the end.
  const caller = withoutPort(chain[chain.length - 1 - trustedProxies] ?? chain[0]);
  // Whatever a header says must at least be an address; else the peer is all that is known.
  return caller !== undefined && isAddress(caller) ? caller : peer;
}

/**
 * An address as some proxies write it in `X-Forwarded-For`, with a port (`203.0.113.5:443`) or
 * in brackets (`[2001:db8::1]`, `[2001:db8::1]:443`): the address alone.
 */
function withoutPort(entry: string | undefined): string | undefined {
  if (entry === undefined) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1];
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return ipv4WithPort ? ipv4WithPort[1] : entry;
}
