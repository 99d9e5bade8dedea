// The client a sign-in attempt is counted under. request.ip is the connection's address, or,
// from a front end given to --trust-proxy, the address the front end forwarded; either way one
// client must make one key. An IPv6 client holds a whole /64 (a provider's smallest allocation)
// and could take a new address for every attempt, so it is counted by that prefix; an IPv4
// address written as IPv6 (::ffff:a.b.c.d) is the IPv4 address; a forwarded value with a port is
// the address without it. A forwarded value that is no address at all (a front end that passes
// a client's own header on) is not believed: the connection's address is used instead.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

function withoutPort(text: string): string {
  const ipv4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(text);
  if (ipv4 !== null) return ipv4[1] ?? text;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  return bracketed === null ? text : (bracketed[1] ?? text);
}

/**
 * The key of the client at `address` (request.ip); `connection` (the socket's own address) is
 * used when `address` is not an address.
 */
export function clientKey(address: string, connection?: string): string {
  const text = withoutPort(address.trim());
  // Node's check is strict (no "0x7f.1" forms); ipaddr.js (fastify's own, for --trust-proxy)
  // reads what passes, an IPv4 address written as IPv6 as the IPv4 one.
  if (isIP(text.split("%")[0] ?? "") !== 0) {
    const ip = ipaddr.process(text);
    if (!(ip instanceof ipaddr.IPv6)) return ip.toString();
    return `${ip.parts
      .slice(0, 4)
      .map((group) => group.toString(16))
      .join(":")}::/64`;
  }
  return connection === undefined || connection === address ? "(no address)" : clientKey(connection);
}
