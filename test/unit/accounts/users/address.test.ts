import { describe, expect, it } from 'vitest';
import { sourceClient, sourceKey } from '../../../../lib/accounts/users/address';

describe('sourceClient', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
  ])('keeps an IPv4 client %j as %s', (source, client) => {
    expect(sourceClient(source)).toBe(client);
  });

  it.each([
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
  ])('counts an IPv6 client %s by its /64 (%s)', (source, client) => {
    expect(sourceClient(source)).toBe(client);
  });

  it('gives every address of one /64 one key, and another /64 another', () => {
    const one = sourceKey('2001:db8:1:2::1');

    expect(sourceKey('2001:db8:1:2:ffff:1234:5678:9abc')).toBe(one);
    expect(sourceKey('2001:db8:1:3::1')).not.toBe(one);
    expect(one).toMatch(/^[\w-]{43}$/);
  });

  it('leaves what is not an IP address as it is (the local host may report anything)', () => {
    expect(sourceClient('unknown')).toBe('unknown');
  });
});
