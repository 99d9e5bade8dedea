import { clientKey } from "../../../src/gateway/routes/client-address";

test.each<[string, string, string | undefined, string]>([
  // case, request.ip, the connection's address, the key
  ["an IPv4 address", "203.0.113.7", undefined, "203.0.113.7"],
  [
    "an IPv4 address with a port, as some front ends forward it",
    "203.0.113.7:51514",
    undefined,
    "203.0.113.7",
  ],
  ["an IPv4 address written as IPv6 (a dual-stack socket)", "::ffff:203.0.113.7", undefined, "203.0.113.7"],
  ["the same, in hex", "::ffff:cb00:7107", undefined, "203.0.113.7"],
  ["an IPv6 address: its /64", "2001:db8:85a3:8d3:1319:8a2e:370:7348", undefined, "2001:db8:85a3:8d3::/64"],
  [
    "another address of the same /64: the same key",
    "2001:db8:85a3:8d3::9",
    undefined,
    "2001:db8:85a3:8d3::/64",
  ],
  ["a compressed address with a short head", "2001:db8::1", undefined, "2001:db8:0:0::/64"],
  ["an IPv6 address in brackets with a port", "[2001:db8::1]:443", undefined, "2001:db8:0:0::/64"],
  ["an IPv6 address with a zone", "fe80::1%eth0", undefined, "fe80:0:0:0::/64"],
  ["IPv6 loopback", "::1", undefined, "0:0:0:0::/64"],
  ["a forwarded value that is no address: the connection's", "junk0", "198.51.100.9", "198.51.100.9"],
  ["no address at all", "junk0", undefined, "(no address)"],
])("%s", (_case, address, connection, key) => {
  expect(clientKey(address, connection)).toBe(key);
});
