/**
 * Kubernetes' semver library (blang/semver/v4 parsing and precedence): `semver(s[, normalize])`,
 * `isSemver(s[, normalize])`, `major`, `minor`, `patch`, `isLessThan`, `isGreaterThan`, `compareTo`.
 * (Kubernetes serves it from v1.33.)
 */
import { global, member, type FunctionRegistry } from './functions.js';
import { T } from './types.js';
import { CelError, OpaqueValue, type Val, type Value } from './values.js';

export const SEMVER_TYPE = T.opaque('kubernetes.Semver');

type PR = { num: bigint } | { str: string };

export class SemverValue extends OpaqueValue {
  readonly typeName = 'kubernetes.Semver';
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: PR[],
  ) {
    super();
  }

  compare(other: OpaqueValue): number {
    const o = other as SemverValue;
    for (const [a, b] of [
      [this.major, o.major],
      [this.minor, o.minor],
      [this.patch, o.patch],
    ] as const) {
      if (a !== b) return a < b ? -1 : 1;
    }
    if (!this.pre.length && !o.pre.length) return 0;
    if (!this.pre.length) return 1;
    if (!o.pre.length) return -1;
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const c = comparePR(this.pre[i], o.pre[i]);
      if (c) return c;
    }
    return this.pre.length === o.pre.length ? 0 : this.pre.length < o.pre.length ? -1 : 1;
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof SemverValue && this.compare(other) === 0;
  }
}

function comparePR(a: PR, b: PR): number {
  if ('num' in a && 'num' in b) return a.num < b.num ? -1 : a.num > b.num ? 1 : 0;
  if ('num' in a) return -1;
  if ('num' in b) return 1;
  return a.str < b.str ? -1 : a.str > b.str ? 1 : 0;
}

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';

function parseNumber(s: string, what: string): bigint | string {
  if (!NUMBERS.test(s)) return `Invalid character(s) found in ${what} number ${JSON.stringify(s)}`;
  if (hasLeadingZeroes(s)) return `${what[0].toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${JSON.stringify(s)}`;
  if (s === '') return `strconv.ParseUint: parsing "": invalid syntax`;
  const v = BigInt(s);
  if (v > (1n << 64n) - 1n) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`;
  return v;
}

/** blang/semver's Parse; returns its error text on failure. */
export function parseSemver(s: string): SemverValue | string {
  if (s === '') return 'Version string empty';
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) return 'No Major.Minor.Patch elements found';
  const major = parseNumber(parts[0], 'major');
  if (typeof major === 'string') return major;
  const minor = parseNumber(parts[1], 'minor');
  if (typeof minor === 'string') return minor;
  let patchStr = parts[2];
  let build = '';
  let prerelease = '';
  const b = patchStr.indexOf('+');
  if (b >= 0) {
    build = patchStr.slice(b + 1);
    patchStr = patchStr.slice(0, b);
  }
  const p = patchStr.indexOf('-');
  if (p >= 0) {
    prerelease = patchStr.slice(p + 1);
    patchStr = patchStr.slice(0, p);
  }
  const patch = parseNumber(patchStr, 'patch');
  if (typeof patch === 'string') return patch;
  const pre: PR[] = [];
  if (b >= 0 || p >= 0) {
    if (p >= 0) {
      for (const x of prerelease.split('.')) {
        if (x === '') return 'Prerelease is empty';
        if (NUMBERS.test(x)) {
          if (hasLeadingZeroes(x)) return `Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(x)}`;
          pre.push({ num: BigInt(x) });
        } else if (ALPHANUM.test(x)) pre.push({ str: x });
        else return `Invalid character(s) found in prerelease ${JSON.stringify(x)}`;
      }
    }
    if (b >= 0) {
      for (const x of build.split('.')) {
        if (x === '') return 'Build meta data is empty';
        if (!ALPHANUM.test(x)) return `Invalid character(s) found in build meta data ${JSON.stringify(x)}`;
      }
    }
  }
  return new SemverValue(major, minor, patch, pre);
}

function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + 1);
  }
  out.push(rest);
  return out;
}

/** Kubernetes' normalizeAndParse: drops a `v` prefix and leading zeros, fills missing minor/patch. */
export function normalizeAndParse(input: string): SemverValue | string {
  const s = input.startsWith('v') ? input.slice(1) : input;
  const parts = splitN(s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    let q = p.replace(/^0+/, '');
    if (q === '' || !/^[0-9]/.test(q)) q = '0' + q;
    return q;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1])) return 'short version cannot contain PreRelease/Build meta data';
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}

export function registerKubernetesSemver(r: FunctionRegistry): void {
  const toSemver = (s: string, normalize: boolean): Val => {
    const v = normalize ? normalizeAndParse(s) : parseSemver(s);
    return typeof v === 'string' ? new CelError(v) : v;
  };
  const sv = (v: Value): SemverValue => v as SemverValue;
  r.add(
    'semver',
    global('string_to_semver', [T.string], SEMVER_TYPE, (a) => toSemver(a[0] as string, false)),
    global('string_bool_to_semver', [T.string, T.bool], SEMVER_TYPE, (a) => toSemver(a[0] as string, a[1] as boolean)),
  );
  r.add(
    'isSemver',
    global('is_semver_string', [T.string], T.bool, (a) => typeof parseSemver(a[0] as string) !== 'string'),
    global('is_semver_string_bool', [T.string, T.bool], T.bool, (a) => typeof (a[1] ? normalizeAndParse(a[0] as string) : parseSemver(a[0] as string)) !== 'string'),
  );
  r.add('isGreaterThan', member('semver_is_greater_than', [SEMVER_TYPE, SEMVER_TYPE], T.bool, (a) => sv(a[0]).compare(sv(a[1])) === 1));
  r.add('isLessThan', member('semver_is_less_than', [SEMVER_TYPE, SEMVER_TYPE], T.bool, (a) => sv(a[0]).compare(sv(a[1])) === -1));
  r.add('compareTo', member('semver_compare_to', [SEMVER_TYPE, SEMVER_TYPE], T.int, (a) => BigInt(sv(a[0]).compare(sv(a[1])))));
  r.add('major', member('semver_major', [SEMVER_TYPE], T.int, (a) => sv(a[0]).major));
  r.add('minor', member('semver_minor', [SEMVER_TYPE], T.int, (a) => sv(a[0]).minor));
  r.add('patch', member('semver_patch', [SEMVER_TYPE], T.int, (a) => sv(a[0]).patch));
}
