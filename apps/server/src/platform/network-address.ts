import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/*
 * Which addresses the server may call on someone's behalf (webhook deliveries, fetched URLs): never the
 * machine itself, its private networks or special ranges unless the operator allows them, so a URL
 * cannot turn the server against what only it can reach (SSRF).
 */

const notPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  notPublic.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (reaches IPv4 addresses, private ones too)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  notPublic.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6, IPv4-mapped included) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !notPublic.check(address, 'ipv4');
  if (version !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return isPublicAddress(mapped[1]);
  // ::ffff:7f00:1 is the mapped form written in hex.
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/i.test(address)) return false;
  return !notPublic.check(address, 'ipv6');
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or undefined for a name. */
export function ipLiteralOf(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** Thrown when a host is, or resolves to, an address the server may not call. */
export class AddressNotAllowedError extends Error {
  override name = 'AddressNotAllowedError';
  constructor(
    message: string,
    /** The refused address. */
    readonly address: string,
  ) {
    super(message);
  }
}

/**
 * The addresses `hostname` resolves to, each checked: all must be public unless `allowPrivate`. Throws
 * AddressNotAllowedError for a refused one, and the resolver's error for a name that does not resolve.
 */
export async function resolvePublicAddresses(
  hostname: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }[]> {
  const literal = ipLiteralOf(hostname);
  const found = literal
    ? [{ address: literal, family: isIP(literal) }]
    : await lookup(hostname, { all: true, verbatim: true });
  if (found.length === 0) throw new Error(`${hostname} has no address`);
  if (!allowPrivate) {
    const refused = found.find((a) => !isPublicAddress(a.address));
    if (refused) {
      throw new AddressNotAllowedError(
        `${hostname} is a private, loopback or reserved address (${refused.address}), which this server does not call.`,
        refused.address,
      );
    }
  }
  return found;
}

/**
 * A resolver for `http.request`'s `lookup` that answers only checked addresses: the connection goes to
 * the address checked, so a name that resolved to a public address when it was saved cannot be pointed
 * at a private one later (the webhooks' deliveries, agents' webhook tools).
 */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublicAddresses(hostname, allowPrivate).then(
      (found) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? found.filter((a) => a.family === options.family)
            : found;
        const list = wanted.length > 0 ? wanted : found;
        if (options.all) callback(null, list);
        else callback(null, list[0]?.address ?? '', list[0]?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
