/**
 * An address as the per-address limits count it (docs/product/limits.md, Counting readers): an
 * IPv4 address as it is, an IPv4 address mapped into IPv6 as that IPv4 address, and an IPv6
 * address by its first 64 bits, the network one household or one host is given, so stepping
 * through the addresses of one's own network is still one address.
 */
export function addressKeyOf(address: string): string {
  if (!address.includes(":")) return address;
  const lower = address.toLowerCase().replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  const [head = "", tail] = lower.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? 0 : Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = [...headGroups, ...Array<string>(zeros).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
