// Source addresses as the per-address limits count them (failed logins, password checks,
// registrations), hashed so that the table never holds an address.
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * The client an address stands for: an IPv4 address itself (IPv4 clients of a dual-stack
 * socket arrive as ::ffff:a.b.c.d), an IPv6 address by its /64 prefix, since one host or network
 * is given a whole /64 and may send from any address in it. Anything else (no address at all)
 * stands for itself.
 */
export function sourceClient(source: string): string {
  const text = source.trim().toLowerCase().replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return text;
  const address = ipaddr.process(text); // ::ffff:a.b.c.d becomes a.b.c.d
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((group) => group.toString(16)).join(':')}::/64`;
}

/** sourceClient() hashed: the part of a table key that names the client. */
export function sourceKey(source: string): string {
  return createHash('sha256').update(sourceClient(source)).digest('base64url');
}
