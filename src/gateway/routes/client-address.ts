// The client a sign-in attempt is counted under. request.ip is the connection's address, or,
// from a front end given to --trust-proxy, the address the front end forwarded; either way one
// client must make one key. An IPv6 client holds a whole /64 (a provider's smallest allocation)
// and could take a new address for every attempt, so it is counted by that prefix; an IPv4
// address written as IPv6 (::ffff:a.b.c.d) is the IPv4 address; a forwarded value with a port is
// the address without it. A forwarded value that is no address at all (a front end that passes
// a client's own header on) is not believed: the connection's address is used instead.
import { isIP } from "node:net";

/** The eight 16-bit groups of an IPv6 address (its zone dropped); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const text = address.split("%")[0] ?? "";
  if (isIP(text) !== 6) return null;
  // An IPv4 tail (::ffff:192.0.2.1) is the last two groups.
  const hex = text.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_match, a: string, b: string, c: string, d: string) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)]
        .map((group) => group.toString(16))
        .join(":"),
  );
  const groupsOf = (part: string | undefined): string[] =>
    part === undefined || part === "" ? [] : part.split(":");
  const [head, tail] = hex.split("::");
  const written = [...groupsOf(head), ...groupsOf(tail)];
  const groups =
    tail === undefined
      ? written
      : [...groupsOf(head), ...Array<string>(8 - written.length).fill("0"), ...groupsOf(tail)];
  return groups.map((group) => Number.parseInt(group, 16));
}

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
  if (isIP(text) === 4) return text;
  const groups = ipv6Groups(text);
  if (groups !== null) {
    const [, , , , , mapped, high = 0, low = 0] = groups;
    if (groups.slice(0, 5).every((group) => group === 0) && mapped === 0xffff) {
      return [high >> 8, high & 255, low >> 8, low & 255].join(".");
    }
    return `${groups
      .slice(0, 4)
      .map((group) => group.toString(16))
      .join(":")}::/64`;
  }
  return connection === undefined || connection === address ? "(no address)" : clientKey(connection);
}
