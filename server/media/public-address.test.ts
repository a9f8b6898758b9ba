import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./public-address.ts";

describe("isPublicAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.9.9.9", "loopback"],
    ["::1", "IPv6 loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped metadata service"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::ffff:0:7f00:1", "IPv4-translated loopback"],
    ["64:ff9b::7f00:1", "NAT64 loopback"],
    ["2002:7f00:1::", "6to4 of loopback"],
    ["2001::1", "Teredo"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["::", "IPv6 unspecified"],
    ["10.0.0.1", "10/8"],
    ["10.255.255.255", "10/8"],
    ["172.16.0.1", "172.16/12"],
    ["172.31.255.254", "172.16/12"],
    ["192.168.1.1", "192.168/16"],
    ["169.254.169.254", "cloud metadata (link-local)"],
    ["169.254.0.1", "link-local"],
    ["fe80::1", "IPv6 link-local"],
    ["fd00::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["fec0::1", "site-local"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.254", "CGNAT"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "IPv6 multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "documentation (reserved)"],
    ["198.18.0.1", "benchmarking (reserved)"],
    ["240.0.0.1", "reserved"],
    ["2001:db8::1", "IPv6 documentation"],
    ["not-an-address", "garbage"],
    ["", "empty"],
  ])("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "2606:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
  ])("allows the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
