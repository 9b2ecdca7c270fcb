/**
 * Kubernetes' IP and CIDR libraries over a port of Go's net/netip parsing and printing (no zones, no IPv4-mapped
 * IPv6 addresses, canonical RFC 5952 strings).
 */
import { global, member, type EstimateArg, type FunctionRegistry } from './functions.js';
import { STRING_TRAVERSAL_COST_FACTOR, factorRange, traversalCost } from './stdlib.js';
import { T } from './types.js';
import { goQuote } from '../go/go-values.js';
import { CelError, OpaqueValue, actualSize, type Val, type Value } from './values.js';

export const IP_TYPE = T.opaque('net.IP');
export const CIDR_TYPE = T.opaque('net.IPPrefix');

interface Addr {
  /** 4 or 16 bytes */
  bytes: Uint8Array;
  zone: string;
}

/** A netip parse error: the message and, when Go reports it, the rest of the input where parsing stopped. */
function addrError(msg: string, at?: string): string {
  return at ? `${msg} (at ${goQuote(at)})` : msg;
}

/** Go's parseIPv4Fields over `s` (a whole address or an IPv6 address's embedded IPv4 tail). */
function parseIPv4(s: string): Uint8Array | string {
  const out = new Uint8Array(4);
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) return addrError('IPv4 field has octet with leading zero');
      val = val * 10 + Number(c);
      digLen++;
      if (val > 255) return addrError('IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return addrError('IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) return addrError('IPv4 address too long');
      out[pos++] = val;
      val = 0;
      digLen = 0;
    } else return addrError('unexpected character', s.slice(i));
  }
  if (pos < 3) return addrError('IPv4 address too short');
  out[3] = val;
  return out;
}

/** Go's parseIPv6 (without the zone). */
function parseIPv6(input: string): Uint8Array | string {
  let s = input;
  const out = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return out;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const d = parseInt(s[off], 16);
      if (!/[0-9a-fA-F]/.test(s[off])) break;
      acc = acc * 16 + d;
      if (off > 3) return addrError('each group must have 4 or less digits', s);
      if (acc > 0xffff) return addrError('IPv6 field has value >=2^16', s);
    }
    if (off === 0) return addrError('each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return addrError('embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) return addrError('too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const v4 = parseIPv4(s);
      if (typeof v4 === 'string') return v4;
      out.set(v4, i);
      i += 4;
      s = '';
      break;
    }
    out[i] = acc >> 8;
    out[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') return addrError('unexpected character, want colon', s);
    if (s.length === 1) return addrError('colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return addrError('multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return addrError('trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) return addrError('address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) out[j + n] = out[j];
    out.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) return addrError('the :: must expand to at least one field of zeros', s);
  return out;
}

/** Go's netip.ParseAddr; returns the error reason on failure. */
function parseAddr(s: string): Addr | string {
  for (const c of s) {
    if (c === '.') {
      const b = parseIPv4(s);
      return typeof b === 'string' ? b : { bytes: b, zone: '' };
    }
    if (c === ':') {
      const pct = s.indexOf('%');
      let zone = '';
      let body = s;
      if (pct >= 0) {
        zone = s.slice(pct + 1);
        body = s.slice(0, pct);
        if (zone === '') return 'zone must be a non-empty string';
      }
      const b = parseIPv6(body);
      return typeof b === 'string' ? b : { bytes: b, zone };
    }
    if (c === '%') return 'missing IPv6 address';
  }
  return 'unable to parse IP';
}

function is4In6(b: Uint8Array): boolean {
  if (b.length !== 16) return false;
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/** netip.Addr.String(). */
export function formatAddr(b: Uint8Array): string {
  if (b.length === 4) return [...b].join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i] << 8) | b[i + 1]);
  if (is4In6(b)) return `::ffff:${[...b.slice(12)].join('.')}`;
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += '::';
      i += bestLen - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += groups[i].toString(16);
  }
  return out;
}

/** Kubernetes' parseIPAddr (zones and IPv4-mapped IPv6 refused). */
function parseIP(raw: string): Addr | string {
  const a = parseAddr(raw);
  if (typeof a === 'string') return `IP Address ${goQuote(raw)} parse error during conversion from string: ParseAddr(${goQuote(raw)}): ${a}`;
  if (a.zone) return `IP address ${goQuote(raw)} with zone value is not allowed`;
  if (is4In6(a.bytes)) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return a;
}

export class IPValue extends OpaqueValue {
  readonly typeName = 'net.IP';
  constructor(readonly bytes: Uint8Array) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof IPValue && other.bytes.length === this.bytes.length && other.bytes.every((b, i) => b === this.bytes[i]);
  }
  override toString(): string {
    return formatAddr(this.bytes);
  }
}

export class CIDRValue extends OpaqueValue {
  readonly typeName = 'net.IPPrefix';
  constructor(
    readonly addr: Uint8Array,
    readonly bits: number,
  ) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof CIDRValue && other.bits === this.bits && new IPValue(this.addr).equals(new IPValue(other.addr));
  }
  override toString(): string {
    return `${formatAddr(this.addr)}/${this.bits}`;
  }
  masked(): CIDRValue {
    return new CIDRValue(maskBytes(this.addr, this.bits), this.bits);
  }
  contains(ip: Uint8Array): boolean {
    if (ip.length !== this.addr.length) return false;
    return prefixEqual(this.addr, ip, this.bits);
  }
}

function maskBytes(b: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] = b[i] & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

function prefixEqual(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  const ma = maskBytes(a, bits);
  const mb = maskBytes(b, bits);
  return ma.every((x, i) => x === mb[i]);
}

function parseCIDR(raw: string): CIDRValue | string {
  const slash = raw.lastIndexOf('/');
  const fail = (why: string): string => `network address ${goQuote(raw)} parse error during conversion from string: netip.ParsePrefix(${goQuote(raw)}): ${why}`;
  if (slash < 0) return fail('no \'/\'');
  const a = parseAddr(raw.slice(0, slash));
  if (typeof a === 'string') return fail(`ParseAddr(${goQuote(raw.slice(0, slash))}): ${a}`);
  if (a.zone) return fail('IPv6 zones cannot be present in a prefix');
  const bitsText = raw.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bitsText)) return fail(`bad bits after slash: ${goQuote(bitsText)}`);
  const bits = Number(bitsText);
  if (bits > a.bytes.length * 8) return fail(`prefix length out of range`);
  if (is4In6(a.bytes)) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return new CIDRValue(a.bytes, bits);
}

function classify(b: Uint8Array): { unspecified: boolean; loopback: boolean; multicast: boolean; llu: boolean; llm: boolean } {
  if (b.length === 4) {
    return {
      unspecified: b.every((x) => x === 0),
      loopback: b[0] === 127,
      multicast: (b[0] & 0xf0) === 0xe0,
      llu: b[0] === 169 && b[1] === 254,
      llm: b[0] === 224 && b[1] === 0 && b[2] === 0,
    };
  }
  return {
    unspecified: b.every((x) => x === 0),
    loopback: b.slice(0, 15).every((x) => x === 0) && b[15] === 1,
    multicast: b[0] === 0xff,
    llu: b[0] === 0xfe && (b[1] & 0xc0) === 0x80,
    llm: b[0] === 0xff && b[1] === 0x02,
  };
}

export function registerKubernetesIP(r: FunctionRegistry): void {
  const strCost = (a: Value[]): number => traversalCost(actualSize(a[0]));
  const strEstimate = (a: EstimateArg[]): { cost: { min: number; max: number } } => ({ cost: factorRange(a[0].size, STRING_TRAVERSAL_COST_FACTOR) });
  const toIP = (s: string): Val => {
    const a = parseIP(s);
    return typeof a === 'string' ? new CelError(a) : new IPValue(a.bytes);
  };
  const ip = (v: Value): Uint8Array => (v as IPValue).bytes;
  r.add(
    'ip',
    global('string_to_ip', [T.string], IP_TYPE, (a) => toIP(a[0] as string), { cost: strCost, estimate: strEstimate }),
    member('cidr_ip', [CIDR_TYPE], IP_TYPE, (a) => new IPValue((a[0] as CIDRValue).addr)),
  );
  r.add('isIP', global('is_ip', [T.string], T.bool, (a) => typeof parseIP(a[0] as string) !== 'string', { cost: strCost, estimate: strEstimate }));
  r.add(
    'ip.isCanonical',
    global(
      'ip_is_canonical',
      [T.string],
      T.bool,
      (a) => {
        const p = parseIP(a[0] as string);
        return typeof p === 'string' ? new CelError(p) : formatAddr(p.bytes) === a[0];
      },
      { cost: (a) => Math.ceil(actualSize(a[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR), estimate: (a) => ({ cost: factorRange(a[0].size, 2 * STRING_TRAVERSAL_COST_FACTOR) }) },
    ),
  );
  r.add('family', member('ip_family', [IP_TYPE], T.int, (a) => (ip(a[0]).length === 4 ? 4n : 6n)));
  r.add('isUnspecified', member('ip_is_unspecified', [IP_TYPE], T.bool, (a) => classify(ip(a[0])).unspecified));
  r.add('isLoopback', member('ip_is_loopback', [IP_TYPE], T.bool, (a) => classify(ip(a[0])).loopback));
  r.add('isLinkLocalMulticast', member('ip_is_link_local_multicast', [IP_TYPE], T.bool, (a) => classify(ip(a[0])).llm));
  r.add('isLinkLocalUnicast', member('ip_is_link_local_unicast', [IP_TYPE], T.bool, (a) => classify(ip(a[0])).llu));
  r.add(
    'isGlobalUnicast',
    member('ip_is_global_unicast', [IP_TYPE], T.bool, (a) => {
      const b = ip(a[0]);
      const c = classify(b);
      if (b.length === 4 && b.every((x) => x === 255)) return false;
      return !c.unspecified && !c.loopback && !c.multicast && !c.llu;
    }),
  );
  r.add(
    'string',
    global('ip_to_string', [IP_TYPE], T.string, (a) => formatAddr(ip(a[0]))),
    global('cidr_to_string', [CIDR_TYPE], T.string, (a) => (a[0] as CIDRValue).toString()),
  );

  const toCIDR = (s: string): Val => {
    const c = parseCIDR(s);
    return typeof c === 'string' ? new CelError(c) : c;
  };
  r.add('cidr', global('string_to_cidr', [T.string], CIDR_TYPE, (a) => toCIDR(a[0] as string), { cost: strCost, estimate: strEstimate }));
  r.add('isCIDR', global('is_cidr', [T.string], T.bool, (a) => typeof parseCIDR(a[0] as string) !== 'string', { cost: strCost, estimate: strEstimate }));
  const cidr = (v: Value): CIDRValue => v as CIDRValue;
  r.add(
    'containsIP',
    member('cidr_contains_ip_string', [CIDR_TYPE, T.string], T.bool, (a) => {
      const p = parseIP(a[1] as string);
      return typeof p === 'string' ? new CelError(p) : cidr(a[0]).contains(p.bytes);
    }),
    member('cidr_contains_ip_ip', [CIDR_TYPE, IP_TYPE], T.bool, (a) => cidr(a[0]).contains(ip(a[1]))),
  );
  const containsCIDR = (c: CIDRValue, o: CIDRValue): boolean => c.addr.length === o.addr.length && c.bits <= o.bits && prefixEqual(c.addr, o.addr, c.bits);
  r.add(
    'containsCIDR',
    member('cidr_contains_cidr_string', [CIDR_TYPE, T.string], T.bool, (a) => {
      const o = parseCIDR(a[1] as string);
      return typeof o === 'string' ? new CelError(o) : containsCIDR(cidr(a[0]), o);
    }),
    member('cidr_contains_cidr', [CIDR_TYPE, CIDR_TYPE], T.bool, (a) => containsCIDR(cidr(a[0]), cidr(a[1]))),
  );
  r.add('masked', member('cidr_masked', [CIDR_TYPE], CIDR_TYPE, (a) => cidr(a[0]).masked()));
  r.add('prefixLength', member('cidr_prefix_length', [CIDR_TYPE], T.int, (a) => BigInt(cidr(a[0]).bits)));
}
