import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class SsrfBlockedError extends Error {
  readonly code = 'ssrf_blocked';
}

/**
 * Only globally routable unicast addresses may receive webhooks. ipaddr.js names every special
 * range (loopback, private, linkLocal incl. 169.254.169.254, carrierGradeNat, multicast, reserved,
 * unspecified, uniqueLocal incl. fd00:ec2::254, ...); IPv4-mapped IPv6 is judged as its IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range !== 'unicast') return false;
  // NAT64 / 6to4 / Teredo embed other addresses; ipaddr names them, so they never reach here.
  return true;
}

/**
 * A `lookup` for http(s).request: resolves once, rejects if any resolved address is not public,
 * and hands the checked address to the socket, so the connection goes where the check looked
 * (no second lookup: DNS rebinding cannot switch the target).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: (options as dns.LookupOptions).family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !allowPrivate && !isPublicAddress(a.address));
      if (bad || list.length === 0) {
        return callback(new SsrfBlockedError('Webhook host resolves to a non-public address'), '', 0);
      }
      const chosen = list[0]!;
      if ((options as dns.LookupAllOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, [chosen]);
      callback(null, chosen.address, chosen.family);
    });
  };
}
