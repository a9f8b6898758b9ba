import ipaddr from "ipaddr.js";

/**
 * True only for an address on the public internet. ipaddr.js names every special-purpose range
 * (loopback, private, link-local with the 169.254.169.254 metadata service, unique-local fc00::/7,
 * CGNAT, multicast, unspecified, reserved, 6to4, Teredo, NAT64, …); anything it does not call plain
 * `unicast` is refused, so a range added to a future registry is refused too. IPv4-mapped IPv6
 * (::ffff:127.0.0.1) is unwrapped first and judged as the IPv4 address it reaches.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}
