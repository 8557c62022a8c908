import { BlockList, isIPv4 } from 'node:net';
import geoip from 'fast-geoip';
import type { GeoLocation } from './consent.tables';

/** Where an address is: lower-case ISO country and subdivision codes (`us`, `il`), or null when unknown. */
export type GeoLookup = (ip: string) => Promise<GeoLocation | null>;

/**
 * IPv4 ranges no geolocation database can place (private, loopback, link-local, shared/CGNAT,
 * documentation, benchmarking, multicast, reserved). The database answers some of them with a country
 * anyway (127.0.0.1 comes back as JP), so they are refused before the lookup.
 */
const UNPLACEABLE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  UNPLACEABLE.addSubnet(network, prefix, 'ipv4');
}

/** The IPv4 address of `ip`, unwrapping the IPv4-mapped IPv6 form (`::ffff:1.2.3.4`) a dual-stack socket gives. */
export function ipv4Of(ip: string): string | undefined {
  const plain = ip.trim().replace(/^::ffff:/i, '');
  return isIPv4(plain) ? plain : undefined;
}

/** Whether a public IPv4 address: one the database may place. */
export function isPlaceableIpv4(ip: string): boolean {
  const v4 = ipv4Of(ip);
  return v4 !== undefined && !UNPLACEABLE.check(v4, 'ipv4');
}

/**
 * The offline IP-to-location lookup: the `fast-geoip` package ships MaxMind's GeoLite2 city data inside the
 * package and reads only the few small files one lookup needs (about 1 ms, under 1 MB of memory); nothing
 * is downloaded at run time. It covers IPv4 only: an IPv6 caller stays unknown, as does a private address.
 */
export const lookupGeoLocation: GeoLookup = async (ip) => {
  const v4 = ipv4Of(ip);
  if (!v4 || !isPlaceableIpv4(v4)) return null;
  const found = await geoip.lookup(v4).catch(() => null);
  if (!found?.country) return null;
  return {
    country: found.country.toLowerCase(),
    region: found.region ? found.region.toLowerCase() : null,
    city: found.city || null,
  };
};
