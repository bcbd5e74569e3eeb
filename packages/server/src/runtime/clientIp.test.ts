import type { IncomingMessage } from 'node:http';
import { clientIp } from './clientIp';

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('clientIp', () => {
  it('is the socket peer when no proxy is trusted, whatever the header says', () => {
    expect(clientIp(request('203.0.113.7', '198.51.100.1'), 0)).toBe('203.0.113.7');
  });

  it('takes the address the trusted proxy saw, not what the client claimed', () => {
    // The client forged "1.2.3.4"; the load balancer (the peer, 10.0.0.2) appended the real one.
    expect(clientIp(request('10.0.0.2', '1.2.3.4, 198.51.100.9'), 1)).toBe('198.51.100.9');
  });

  it('walks back one entry per trusted hop', () => {
    expect(clientIp(request('10.0.0.3', '198.51.100.9, 10.0.0.2'), 2)).toBe('198.51.100.9');
  });

  it('falls back to the left-most address when the chain is shorter than the hops', () => {
    expect(clientIp(request('10.0.0.2'), 1)).toBe('10.0.0.2');
  });

  it('reads an address a proxy wrote with its port or in brackets', () => {
    expect(clientIp(request('10.0.0.2', '198.51.100.9:443'), 1)).toBe('198.51.100.9');
    expect(clientIp(request('10.0.0.2', '[2001:db8::1]:443'), 1)).toBe('2001:db8::1');
    expect(clientIp(request('10.0.0.2', '[2001:db8::1]'), 1)).toBe('2001:db8::1');
  });

  it('keeps the peer when the header holds no address at all', () => {
    expect(clientIp(request('10.0.0.2', 'unknown'), 1)).toBe('10.0.0.2');
    expect(clientIp(request('10.0.0.2', '<script>'), 1)).toBe('10.0.0.2');
  });
});
