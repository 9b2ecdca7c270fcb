/**
 * apimachinery's field.Path printing (`spec.items[0]`, `spec.labels[app]`, `<nil>` for the root) and
 * apiextensions' ValidFieldPath (the `fieldPath` of an x-kubernetes-validations rule: `.a.b`, `['a.b']`).
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';

/** An immutable field path. */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly name: string,
    private readonly index: string | undefined,
  ) {}

  static root(name: string): FieldPath {
    return new FieldPath(undefined, name, undefined);
  }

  /** A path made of already-printed text (such as an admission prefix). */
  static of(text: string): FieldPath {
    return new FieldPath(undefined, text, undefined);
  }

  static child(p: FieldPath | undefined, name: string): FieldPath {
    return new FieldPath(p, name, undefined);
  }

  static key(p: FieldPath | undefined, key: string): FieldPath {
    return new FieldPath(p, '', key);
  }

  static index(p: FieldPath | undefined, i: number): FieldPath {
    return new FieldPath(p, '', String(i));
  }

  toString(): string {
    const elems: FieldPath[] = [];
    for (let p: FieldPath | undefined = this; p; p = p.parent) elems.push(p);
    let out = '';
    for (let i = elems.length - 1; i >= 0; i--) {
      const p = elems[i];
      if (p.parent && p.name.length > 0) out += '.';
      out += p.name.length > 0 ? p.name : `[${p.index}]`;
    }
    return out;
  }
}

/** How a (possibly nil) path prints in a field.Error. */
export function pathString(p: FieldPath | undefined): string {
  return p ? p.toString() : '<nil>';
}

function unescapeSingleQuote(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/\\./g, (m) => {
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };
    const v = map[m[1]];
    if (v === undefined) bad = true;
    return v ?? '';
  });
  return bad ? undefined : out;
}

function tokenize(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === "'") {
      let j = i + 1;
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++;
      out.push(s.slice(i, Math.min(j + 1, s.length)));
      i = j + 1;
      continue;
    }
    if ('.[]'.includes(s[i])) {
      out.push(s[i]);
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && !'.[]'.includes(s[j])) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

/**
 * apiextensions' ValidFieldPath: the field.Path of a rule's fieldPath relative to `schema`, or the error text.
 */
export function validFieldPath(jsonPath: string, schema: JSONSchemaProps): { path?: FieldPath; error?: string } {
  let path: FieldPath | undefined;
  let s: JSONSchemaProps | undefined = schema;
  const append = (name: string, isNamed: boolean): string | undefined => {
    if (!isNamed) {
      path = FieldPath.key(path, name);
      const ap = s!.additionalProperties;
      s = ap && typeof ap === 'object' ? ap : undefined;
      return undefined;
    }
    path = FieldPath.child(path, name);
    const next = s!.properties?.[name];
    if (!next) return 'does not refer to a valid field';
    s = next;
    return undefined;
  };
  const toks = tokenize(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    const named = (): boolean | undefined => (s?.properties ? true : s?.additionalProperties ? false : undefined);
    if (tok === '[') {
      const q = toks[++i];
      if (q === undefined) return { error: 'unexpected end of JSON path' };
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return { error: `expected single quoted string but got ${q}` };
      const name = unescapeSingleQuote(q.slice(1, -1));
      if (name === undefined) return { error: 'invalid string literal: invalid escape char' };
      const isNamed = named();
      if (isNamed === undefined) return { error: 'does not refer to a valid field' };
      const err = append(name, isNamed);
      if (err) return { error: err };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const isNamed = named();
      if (isNamed === undefined) return { error: 'does not refer to a valid field' };
      const err = append(name, isNamed);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path };
}
