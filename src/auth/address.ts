/**
 * Which IP addresses a fetch on a client's behalf may reach: only public unicast ones. A client
 * ID metadata document is fetched from a URL the client chooses, so without this check anyone
 * could make the server read its own loopback, the cloud's metadata service (169.254.169.254) or
 * a private network. Everything that is not globally routable unicast is refused: loopback,
 * private (RFC 1918, unique local), link-local, shared (CGNAT), documentation, benchmarking,
 * multicast, reserved, and IPv6 forms that embed or tunnel to IPv4 (mapped, compatible, 6to4,
 * NAT64, Teredo) unless the IPv4 inside is itself public. Pure.
 *
 * @module
 */

/** IPv4 ranges that are not public, as [first octets as a 32-bit number, prefix length]. */
const IPV4_BLOCKED: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

const IPV4_BLOCKS = IPV4_BLOCKED.map(([base, bits]) => {
  const value = parseIpv4(base);
  if (value === undefined) throw new TypeError(`bad IPv4 block ${base}`);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { value: (value & mask) >>> 0, mask };
});

/**
 * Whether `address` (an IPv4 dotted quad or an IPv6 address, brackets allowed) is a public
 * unicast address a server-side fetch may connect to. Anything unparsable is not.
 *
 * @example
 * ```ts
 * isPublicAddress("93.184.216.34"); // true
 * isPublicAddress("169.254.169.254"); // false
 * isPublicAddress("::ffff:127.0.0.1"); // false
 * ```
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return isPublicIpv4(v4);
  const v6 = parseIpv6(bare);
  return v6 !== undefined && isPublicIpv6(v6);
}

/**
 * Whether `host` (a URL's hostname) is this machine: `localhost`, 127.0.0.0/8 or `::1` - where
 * RFC 8252 lets native apps receive their redirect over plain `http:`.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost") return true;
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return v4 >>> 24 === 127;
  const v6 = parseIpv6(bare);
  return v6 !== undefined && v6.every((group, index) => group === (index === 7 ? 1 : 0));
}

/**
 * The group a client address is counted in, for limits per client address: an IPv4 address on
 * its own, an IPv6 address by its /64 (one subscriber's usual allocation: counting single IPv6
 * addresses would give every sender 2^64 of them), an IPv4 address mapped into IPv6 as the IPv4
 * one. Anything unparsable (no address known) is its own group, as given.
 *
 * @example
 * ```ts
 * addressGroup("203.0.113.7"); // "203.0.113.7"
 * addressGroup("2001:db8:1:2:aaaa::1"); // "2001:db8:1:2::/64"
 * addressGroup("::ffff:203.0.113.7"); // "203.0.113.7"
 * ```
 */
export function addressGroup(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "");
  const v4 = parseIpv4(bare);
  if (v4 !== undefined) return bare;
  const v6 = parseIpv6(bare);
  if (v6 === undefined) return address;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, i = 0] = v6;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) {
    return [h >>> 8, h & 0xff, i >>> 8, i & 0xff].join(".");
  }
  return `${[a, b, c, d].map((group) => group.toString(16)).join(":")}::/64`;
}

/** Whether `host` is written as an IP address (v4, or v6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  return parseIpv4(bare) !== undefined || parseIpv6(bare) !== undefined;
}

function isPublicIpv4(value: number): boolean {
  return IPV4_BLOCKS.every((block) => ((value & block.mask) >>> 0) !== block.value);
}

/** The 32-bit value of a canonical dotted quad, or `undefined`. */
function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value >>> 0;
}

/** The eight 16-bit groups of an IPv6 address (no zone id), or `undefined`. */
function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(":")) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === "") return [];
    const out: number[] = [];
    const pieces = half.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        out.push(parseInt(piece, 16));
      } else return undefined;
    }
    return out;
  };
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function isPublicIpv6(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, i = 0] = g;
  const embedded = ((h << 16) | i) >>> 0;
  // ::ffff:a.b.c.d (mapped) and 64:ff9b::a.b.c.d (NAT64): as public as the IPv4 inside.
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) {
    return isPublicIpv4(embedded);
  }
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) {
    return isPublicIpv4(embedded);
  }
  // 2002::/16 (6to4) carries the IPv4 address in its second and third groups.
  if (a === 0x2002) return isPublicIpv4(((b << 16) | c) >>> 0);
  // Only global unicast (2000::/3) is public; within it the IETF block 2001::/23 (Teredo, ORCHID,
  // benchmarking...) and the documentation prefixes 2001:db8::/32 and 3fff::/20 are not.
  if ((a & 0xe000) !== 0x2000) return false;
  if (a === 0x2001 && b < 0x0200) return false;
  if (a === 0x2001 && b === 0x0db8) return false;
  if (a === 0x3fff && (b & 0xf000) === 0) return false;
  return true;
}
