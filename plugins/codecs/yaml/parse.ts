import YAML, { isAlias, isCollection, isPair, isScalar, type Document, type ParseOptions, type DocumentOptions, type SchemaOptions } from 'yaml';
import { ApiError, errors } from '../../../core/contracts/api-error.js';
import { maxBodyDepth } from '../../../core/contracts/body-decoding.js';
import { nestingBound } from './nesting.js';

/**
 * Safe parsing: the YAML 1.2 core schema and nothing else (no custom or `!!binary`-style tags: an unresolved tag is an
 * error, not a string), `<<` merge keys as go-yaml reads them, last duplicate key wins as in go-yaml.
 */
const options: ParseOptions & DocumentOptions & SchemaOptions = {
  schema: 'core',
  customTags: [],
  resolveKnownTags: false,
  merge: true,
  uniqueKeys: false,
  prettyErrors: false,
  logLevel: 'silent',
};

/**
 * Alias expansions allowed per document: enough for manifests that share blocks through anchors, while a
 * "billion laughs" body fails after a few thousand nodes instead of expanding to billions.
 */
const maxAliasCount = 1000;

/** Nesting (an upper bound from the lexer) beyond which the parser does not even run. */
const maxNestingBound = 2 * maxBodyDepth;

function malformed(message: string): ApiError {
  return errors.badRequest(`error converting YAML to JSON: yaml: ${message}`);
}

/**
 * Parses a body that must be one YAML document into a plain JSON value (null for an empty body). Every refusal is a
 * 400: syntax errors, more than one document, unresolved tags, collections as keys, excessive aliasing, numbers JSON
 * cannot carry (.inf, .nan) and hostile nesting.
 */
export function parseYaml(text: string): unknown {
  if (nestingBound(text) > maxNestingBound) {
    throw errors.badRequest(`the object provided is unrecognized or malformed: nesting exceeds the maximum depth of ${maxBodyDepth}`);
  }
  const parsed = YAML.parseAllDocuments(text, options);
  // An empty stream, and empty documents such as the one after a trailing `---`, hold nothing.
  const docs = Array.isArray(parsed) ? parsed.filter((d) => !isEmpty(d)) : [];
  if (docs.length === 0) return null;
  if (docs.length > 1) throw malformed(`a single YAML document is required, found ${docs.length} documents`);
  const doc = docs[0];
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw malformed(`line ${lineOf(text, problem.pos[0])}: ${problem.message}`);
  checkKeys(doc, text);
  try {
    return doc.toJS({ maxAliasCount, reviver: finiteNumbers });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const message = (err as Error).message;
    throw malformed(message.startsWith('Excessive alias count') ? 'document contains excessive aliasing' : message);
  }
}

/** A document with no content at all (not even an explicit `~`), e.g. after a trailing `---`. */
function isEmpty(doc: Document.Parsed): boolean {
  const c = doc.contents;
  return doc.errors.length === 0 && doc.warnings.length === 0 && (c === null || (isScalar(c) && c.source === '' && c.value === null && !c.tag));
}

/** JSON objects have string keys: a map or sequence used as a key (`[a, b]: 1`) has no JSON form. */
function checkKeys(doc: Document.Parsed, text: string): void {
  YAML.visit(doc, {
    Pair(_, pair) {
      if (!isPair(pair)) return;
      const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      if (isCollection(key)) {
        const pos = (pair.key as { range?: [number, number, number] }).range?.[0] ?? 0;
        throw malformed(`line ${lineOf(text, pos)}: a mapping key must be a scalar to convert to JSON`);
      }
    },
  });
}

/** .inf and .nan are YAML numbers that JSON cannot carry (kube's YAML-to-JSON conversion fails on them too). */
function finiteNumbers(_key: unknown, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw errors.badRequest(`error converting YAML to JSON: json: unsupported value: ${Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf'}`);
  }
  return value;
}

/** The 1-based line of a character offset, for messages in go-yaml's `line N:` form. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
