/**
 * Parses controller-gen marker lines (`+name`, `+name=value`, `+name:arg=value,arg=value`) with controller-gen's
 * argument syntax: "Go-quoted" or `raw` strings, bare words, lists as `{a,b}` or `a;b`, and for `default`, `example`
 * and `Enum` entries any YAML/JSON literal (`5`, `true`, `{"a": 1}`, `[1, 2]`).
 */
import YAML from 'yaml';
import { GenCrdError, type SourceLocation } from './gen-crd-error.js';
import { findMarker, type ArgType, type MarkerDefinition } from './marker-registry.js';

export interface Marker {
  definition: MarkerDefinition;
  /** The marker as written, for messages. */
  text: string;
  /** The value of a `value` marker; true for a flag. */
  value: unknown;
  /** The arguments of an `args` marker. */
  args: Record<string, unknown>;
  loc: SourceLocation;
}

/** A comment line that is a marker: `+` then a name. */
export function isMarkerLine(line: string): boolean {
  return /^\+[A-Za-z]/.test(line);
}

/** Splits at `separator` outside quotes, backquotes, braces and brackets. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === '`') quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quote) throw new Error(`unterminated ${quote === '"' ? 'quoted string' : 'raw string'}`);
  parts.push(text.slice(start));
  return parts;
}

/** A quoted string's value, or undefined when `text` is not one. */
function unquote(text: string): string | undefined {
  if (text.length >= 2 && text.startsWith('`') && text.endsWith('`')) return text.slice(1, -1);
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new Error(`bad quoted string ${text}`);
    }
  }
  return undefined;
}

/** A YAML/JSON literal; a quoted string is a string. */
function literal(text: string): unknown {
  const quoted = unquote(text);
  if (quoted !== undefined) return quoted;
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new Error(`${JSON.stringify(text)} is not a YAML or JSON value`);
  return doc.toJS();
}

/** The items of `{a,b}` or `a;b`. */
function listItems(text: string): string[] {
  const braced = text.startsWith('{') && text.endsWith('}');
  const items = braced ? splitTopLevel(text.slice(1, -1), ',') : splitTopLevel(text, ';');
  return items.map((s) => s.trim()).filter((s, i, all) => s !== '' || all.length > 1);
}

function convert(raw: string, type: ArgType): unknown {
  const text = raw.trim();
  switch (type) {
    case 'string':
      return unquote(text) ?? text;
    case 'int':
      if (!/^-?\d+$/.test(text)) throw new Error(`${JSON.stringify(text)} is not an integer`);
      return Number(text);
    case 'number': {
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${JSON.stringify(text)} is not a number`);
      return Number(text);
    }
    case 'bool':
      if (text !== 'true' && text !== 'false') throw new Error(`${JSON.stringify(text)} is not true or false`);
      return text === 'true';
    case 'string-list':
      return listItems(text).map((s) => unquote(s) ?? s);
    case 'any':
      // `{a,b}` is controller-gen's list; `{a: 1}` and `{"a": 1}` are maps.
      if (text.startsWith('{') && text.endsWith('}') && !text.includes(':') && text !== '{}') return listItems(text).map(literal);
      return literal(text);
    case 'any-list':
      return listItems(text).map(literal);
  }
}

/** Parses one marker line (with its `+`). Throws GenCrdError for an unknown or malformed marker. */
export function parseMarker(line: string, loc: SourceLocation): Marker {
  const body = line.slice(1).trim();
  const definition = findMarker(body);
  if (!definition) throw GenCrdError.at(loc, `unknown marker +${body.split('=')[0]}`);
  const rest = body.slice(definition.name.length);
  const fail = (why: string) => GenCrdError.at(loc, `malformed marker +${body}: ${why}`);
  const shape = definition.shape;
  const marker: Marker = { definition, text: `+${body}`, value: true, args: {}, loc };
  try {
    if (shape.kind === 'flag') {
      if (rest !== '') throw new Error(`+${definition.name} takes no value`);
    } else if (shape.kind === 'value') {
      if (!rest.startsWith('=') || rest.length === 1) throw new Error(`expected +${definition.name}=<value>`);
      marker.value = convert(rest.slice(1), shape.type);
    } else {
      if (rest !== '' && !rest.startsWith(':')) throw new Error(`expected +${definition.name}:<argument>=<value>,…`);
      for (const part of rest === '' ? [] : splitTopLevel(rest.slice(1), ',')) {
        const eq = part.indexOf('=');
        const key = (eq < 0 ? part : part.slice(0, eq)).trim();
        const arg = shape.args[key];
        if (!arg) throw new Error(`unknown argument ${JSON.stringify(key)} (known: ${Object.keys(shape.args).join(', ')})`);
        if (key in marker.args) throw new Error(`argument ${key} given twice`);
        if (eq < 0 && arg.type !== 'bool') throw new Error(`argument ${key} needs a value`);
        marker.args[key] = eq < 0 ? true : convert(part.slice(eq + 1), arg.type);
      }
      const missing = Object.entries(shape.args).filter(([k, a]) => a.required && !(k in marker.args));
      if (missing.length) throw new Error(`missing argument ${missing.map(([k]) => k).join(', ')}`);
    }
  } catch (err) {
    if (err instanceof GenCrdError) throw err;
    throw fail((err as Error).message);
  }
  return marker;
}
