import { normalizeRange, rangeHolds, rateLimitNetwork, suggestedRange } from './ipBans';

describe('address ranges', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7/32'],
    ['203.0.113.7/24', '203.0.113.0/24'],
    [' 203.0.113.200/16 ', '203.0.0.0/16'],
    ['::ffff:203.0.113.7', '203.0.113.7/32'],
    ['2001:db8:1:2::9/48', '2001:db8:1::/48'],
    ['2001:DB8::1', '2001:db8::1/128'],
  ])('stores %s as %s', (input, stored) => {
    expect(normalizeRange(input)).toBe(stored);
  });

  it.each([
    '',
    '203.0.113',
    '0x7f.1',
    '203.0.113.0/15',
    '2001:db8::/31',
    '1.2.3.4/33',
    '1.2.3.4/x',
    '1.2.3.4/24/8',
    'example.com',
  ])('refuses %j with INVALID_INPUT on the range', (input) => {
    expect(() => normalizeRange(input)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        extensions: expect.objectContaining({ field: 'range' }),
      }),
    );
  });

  it('matches addresses of the same family inside the range only', () => {
    expect(rangeHolds('203.0.113.0/24', '203.0.113.255')).toBe(true);
    expect(rangeHolds('203.0.113.0/24', '203.0.114.0')).toBe(false);
    expect(rangeHolds('203.0.113.0/24', '::ffff:203.0.113.9')).toBe(true);
    expect(rangeHolds('2001:db8::/32', '2001:db8:ffff::1')).toBe(true);
    expect(rangeHolds('2001:db8::/32', '203.0.113.9')).toBe(false);
    expect(rangeHolds('203.0.113.0/24', 'not an address')).toBe(false);
  });

  it('suggests a home network: the /24 of IPv4, the /64 of IPv6', () => {
    expect(suggestedRange('203.0.113.7')).toBe('203.0.113.0/24');
    expect(suggestedRange('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(suggestedRange('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(suggestedRange('nonsense')).toBeNull();
  });

  it('counts an IPv6 caller by their /64 and IPv4 through IPv6 as IPv4, for rate limits', () => {
    expect(rateLimitNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(rateLimitNetwork('2001:db8:1:2:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitNetwork('not an address')).toBe('not an address');
  });
});
