import YAML from 'yaml';
import { errors } from '../errors/api-error.js';

/** Deeper bodies are refused before any recursive code (merge, compare, validate) sees them. */
export const maxBodyDepth = 1000;

/** The media type without parameters, lower-cased. */
export function baseMediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Parses a request body as JSON or YAML according to its media type; every failure is a 400 Status. */
export function decodeBody(raw: Buffer, mediaType: string): unknown {
  const text = raw.toString('utf8');
  let value: unknown;
  if (mediaType.endsWith('yaml')) {
    value = parseYaml(text);
  } else {
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw errors.badRequest(`the object provided is unrecognized or malformed: ${(err as Error).message}`);
    }
  }
  checkDepth(value);
  return value;
}

function parseYaml(text: string): unknown {
  let docs: YAML.Document.Parsed[];
  try {
    // maxAliasCount caps alias expansion so that "billion laughs" bodies fail fast.
    docs = YAML.parseAllDocuments(text, { uniqueKeys: false }) as YAML.Document.Parsed[];
  } catch (err) {
    throw errors.badRequest(`error converting YAML to JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(docs)) throw errors.badRequest('error converting YAML to JSON: no document');
  if (docs.length > 1) throw errors.badRequest('error converting YAML to JSON: a single YAML document is required, found ' + docs.length);
  const doc = docs[0];
  if (!doc) return null;
  const problem = doc.errors[0];
  if (problem) throw errors.badRequest(`error converting YAML to JSON: ${problem.message}`);
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw errors.badRequest(`error converting YAML to JSON: ${(err as Error).message}`);
  }
}

/** Iterative depth check (a recursive one would itself overflow on hostile input). */
function checkDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxBodyDepth) throw errors.badRequest(`the object provided is unrecognized or malformed: nesting exceeds the maximum depth of ${maxBodyDepth}`);
    for (const child of Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}
