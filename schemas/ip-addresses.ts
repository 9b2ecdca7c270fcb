/**
 * IP, CIDR and MAC address parsing as Go's net package does it, in the two flavours kube-openapi's formats use:
 * strict (`net.ParseIP`, Go >= 1.17: no leading zeros in IPv4 fields) and sloppy (`k8s.io/utils/net`'s
 * `ParseIPSloppy`/`ParseCIDRSloppy`, the Go 1.16 parser: leading zeros allowed).
 */

function isDigits(s: string): boolean {
  return /^[0-9]+$/.test(s);
}

/** Dotted-decimal IPv4. */
export function isIPv4Text(s: string, sloppy: boolean): boolean {
  const fields = s.split('.');
  if (fields.length !== 4) return false;
  for (const f of fields) {
    if (!isDigits(f)) return false;
    if (!sloppy && (f.length > 3 || (f.length > 1 && f[0] === '0'))) return false;
    if (Number(f) > 255) return false;
  }
  return true;
}

const HEX = /^[0-9a-fA-F]+/;

/** IPv6 text without a zone (net.ParseIP refuses zones), with an optional embedded IPv4 tail. */
export function isIPv6Text(input: string, sloppy: boolean): boolean {
  let s = input;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return true;
  }
  let i = 0;
  while (i < 16) {
    const m = HEX.exec(s);
    if (!m) return false;
    const digits = m[0];
    if (!sloppy && digits.length > 4) return false;
    if (parseInt(digits, 16) > 0xffff) return false;
    const rest = s.slice(digits.length);
    if (rest.startsWith('.')) {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!isIPv4Text(s, sloppy)) return false;
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = rest;
    if (s === '') break;
    if (s[0] !== ':' || s.length === 1) return false;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** net.ParseIP (strict) or ParseIPSloppy: the first '.' or ':' decides the family. */
export function parseIPText(s: string, sloppy: boolean): boolean {
  for (const c of s) {
    if (c === '.') return isIPv4Text(s, sloppy);
    if (c === ':') return isIPv6Text(s, sloppy);
    if (c === '%' && !sloppy) return false;
  }
  return false;
}

/** k8s.io/utils/net ParseCIDRSloppy. */
export function isCIDRSloppy(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let bits: number;
  if (isIPv4Text(addr, true)) bits = 32;
  else if (isIPv6Text(addr, true)) bits = 128;
  else return false;
  if (!isDigits(mask)) return false;
  const n = Number(mask);
  return n <= bits;
}

const MAC_COLON = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(?:\1[0-9a-fA-F]{2})*$/;
const MAC_DOT = /^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4})*$/;

/** net.ParseMAC: 6, 8 or 20 octets as aa:bb:.., aa-bb-.. or aabb.ccdd... */
export function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  if (MAC_COLON.test(s)) {
    const n = (s.length + 1) / 3;
    return n === 6 || n === 8 || n === 20;
  }
  if (MAC_DOT.test(s)) {
    const n = (2 * (s.length + 1)) / 5;
    return n === 6 || n === 8 || n === 20;
  }
  return false;
}
