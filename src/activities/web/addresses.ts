import { isIP } from 'node:net';

/**
 * Whether `web_fetch` must not connect to an address: loopback, private, shared (CGNAT), link-local,
 * unspecified, multicast and reserved IPv4; loopback, unspecified, unique-local, link-local, site-local
 * and multicast IPv6; and every IPv6 form that carries an IPv4 address inside (mapped `::ffff:a.b.c.d`,
 * compatible `::a.b.c.d`, translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo
 * `2001::/32`) is judged by that IPv4 address. Anything that is not an IP address is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 4) return isPrivateIpv4(ipv4Octets(bare));
  if (isIP(bare) !== 6) return true;
  return isPrivateIpv6(ipv6Words(bare));
}

function isPrivateIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

function isPrivateIpv6(w: number[]): boolean {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  const v4 = (hi: number, lo: number) => [(hi >> 8) & 0xff, hi & 0xff, (lo >> 8) & 0xff, lo & 0xff];
  // Mapped and compatible (`::` and `::1` among them: 0.0.0.0 and 0.0.0.1).
  if (zeros(0, 5) && (w[5] === 0xffff || w[5] === 0)) return isPrivateIpv4(v4(w[6], w[7]));
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return isPrivateIpv4(v4(w[6], w[7])); // translated
  if (w[0] === 0x64 && w[1] === 0xff9b) return w[2] !== 0 || isPrivateIpv4(v4(w[6], w[7])); // NAT64 (local-use: all)
  if (w[0] === 0x2002) return isPrivateIpv4(v4(w[1], w[2])); // 6to4
  // Teredo: the server's address, then the client's, stored inverted.
  if (w[0] === 0x2001 && w[1] === 0) return isPrivateIpv4(v4(w[2], w[3])) || isPrivateIpv4(v4(~w[6], ~w[7]));
  const first = w[0];
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0 || first >= 0xff00;
}

function ipv4Octets(address: string): number[] {
  return address.split('.').map(Number);
}

/** The eight 16-bit words of a valid IPv6 address, a trailing dotted IPv4 part included. */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = ipv4Octets(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back].map((x) => x & 0xffff);
}
