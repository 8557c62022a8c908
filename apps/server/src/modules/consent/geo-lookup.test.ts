import { describe, expect, it } from 'vitest';
import { ipv4Of, isPlaceableIpv4, lookupGeoLocation } from './geo-lookup';

describe('the offline geolocation lookup', () => {
  it('places public addresses from the database shipped in the package', async () => {
    // RIPE NCC (Amsterdam), the University of Chicago, Swiss ETH Zurich.
    expect((await lookupGeoLocation('193.0.6.139'))?.country).toBe('nl');
    expect(await lookupGeoLocation('128.135.1.1')).toMatchObject({ country: 'us', region: 'il' });
    expect((await lookupGeoLocation('::ffff:129.132.1.1'))?.country).toBe('ch');
  });

  it('leaves private, loopback, IPv6 and malformed addresses unknown', async () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '172.20.0.1', '::1', '2001:db8::1', 'nope']) {
      expect(await lookupGeoLocation(ip)).toBeNull();
    }
  });

  it('unwraps IPv4-mapped IPv6 addresses', () => {
    expect(ipv4Of('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(ipv4Of('8.8.8.8')).toBe('8.8.8.8');
    expect(ipv4Of('2001:db8::1')).toBeUndefined();
    expect(isPlaceableIpv4('100.64.0.1')).toBe(false);
    expect(isPlaceableIpv4('8.8.8.8')).toBe(true);
  });
});
