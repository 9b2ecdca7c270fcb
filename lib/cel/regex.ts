/**
 * Regular expressions with RE2 semantics (Go's regexp, via re2js): matching is linear in the input, so a rule like
 * `self.matches('^(a+)+$')` cannot stall the server. Compiled patterns are cached.
 */
import { RE2JS } from 're2js';

const MAX_CACHED = 512;
const cache = new Map<string, RE2JS | string>();

/** The compiled pattern, or Go's error text (`error parsing regexp: missing closing ): ...`). */
export function compileRE2(pattern: string): RE2JS | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let compiled: RE2JS | string;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (e) {
    compiled = e instanceof Error ? e.message : String(e);
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

/** The instances re2Tester made, by the instance compileRE2 returned. */
const testers = new WeakMap<RE2JS, RE2JS>();

/**
 * The instance to answer yes/no questions with: the same pattern without its one-pass program. re2js answers with
 * its one-pass engine whenever a pattern is one-pass (as `^[a-z0-9-]+$` is) — several times slower than its DFA, which
 * answers otherwise (re2js falls back to its other engines where the DFA gives up). All of re2js' engines accept the
 * same strings: only the speed changes. The one-pass program stays on the shared instance, where it finds submatches.
 */
export function re2Tester(re: RE2JS): RE2JS {
  let t = testers.get(re);
  if (!t) {
    t = RE2JS.compile(re.pattern(), re.flags());
    const impl = (t as unknown as { re2Input?: { onepass?: unknown } }).re2Input;
    if (impl && 'onepass' in impl) impl.onepass = null;
    testers.set(re, t);
  }
  return t;
}

/** Go's regexp.MatchString: an unanchored search. */
export function re2Test(re: RE2JS, input: string): boolean {
  return re2Tester(re).test(input);
}

/** The first match (Go's FindString), or undefined. */
export function re2Find(re: RE2JS, input: string): string | undefined {
  const m = re.exec(input);
  return m ? m[0] : undefined;
}

/** Up to `limit` matches (Go's FindAllString; all when limit < 0). */
export function re2FindAll(re: RE2JS, input: string, limit: number): string[] {
  const out: string[] = [];
  if (limit === 0) return out;
  for (const m of re.matchAll(input)) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

/** The compiled pattern when `pattern` is a constant string that compiles (for plan-time specialisation). */
export function constantRegex(pattern: unknown): RE2JS | undefined {
  if (typeof pattern !== 'string') return undefined;
  const re = compileRE2(pattern);
  return typeof re === 'string' ? undefined : re;
}
