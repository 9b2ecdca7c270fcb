import YAML, { type ScalarTag, type Tags } from 'yaml';
import type { Codec, ListArrayField, ListObject } from '../../../core/contracts/codec.js';
import { ApiError, errors } from '../../../core/contracts/api-error.js';
import { parseYaml } from './parse.js';

/** The plain scalars YAML 1.2's core schema reads as something other than a string (`0o14`, `1e3`, `.inf`, …). */
const coreScalars = new YAML.Schema({ schema: 'core' }).tags.flatMap((t) => ((t as ScalarTag).test ? [(t as ScalarTag).test!.source] : []));

/**
 * Identifies no value, so it never writes one; its test only makes the stringifier quote strings that some reader
 * would take for something else: YAML 1.2 readers (kapi's own parser included) for the core schema's scalars, go-yaml
 * for `<<` (a merge key, which the YAML 1.1 merge tag would write plain).
 */
const quoteAmbiguous: ScalarTag = { tag: 'tag:kapi,2025:ambiguous', default: true, test: new RegExp([...coreScalars, '^<<$'].join('|')), resolve: (s) => s };

/**
 * How kube writes YAML (go-yaml v2 behind sigs.k8s.io/yaml): keys sorted, sequences not indented under their key,
 * strings that YAML 1.1 would read as something else quoted ("yes", "123", timestamps), and no anchors for objects
 * that appear twice. Strings YAML 1.2 would misread are quoted too, so that any reader gets the same object back.
 */
const stringifyOptions = {
  version: '1.1',
  sortMapEntries: true,
  indentSeq: false,
  aliasDuplicateObjects: false,
  customTags: (tags: Tags) => [...tags.filter((t) => (t as ScalarTag).tag !== 'tag:yaml.org,2002:merge'), quoteAmbiguous],
} as const;

/**
 * `application/yaml`: responses of every kind (objects, lists, Status, Tables), request bodies and server-side apply
 * patches. No watch stream: kube has none for YAML.
 */
export class YamlCodec implements Codec {
  readonly mediaType = 'application/yaml';
  readonly bodyMediaTypes = ['application/yaml'];
  readonly applyPatchMediaType = 'application/apply-patch+yaml';

  encodes(): boolean {
    return true;
  }

  encode(object: object): string {
    return YAML.stringify(object, stringifyOptions);
  }

  /**
   * The list's fields in sorted order, as `encode` writes them, with a non-empty `items` (or `rows`) written element by
   * element: each one a block sequence entry (`- ` then its mapping, indented under it).
   */
  *encodeListPieces(list: ListObject, field: ListArrayField = 'items'): Iterable<string> {
    for (const key of Object.keys(list).sort()) {
      const value = list[key];
      if (key !== field || (value as unknown[]).length === 0) {
        yield YAML.stringify({ [key]: value }, stringifyOptions);
        continue;
      }
      yield `${field}:\n`;
      for (const element of value as unknown[]) yield sequenceEntry(YAML.stringify(element, stringifyOptions));
    }
  }

  decode(raw: Buffer): unknown {
    const text = raw.toString('utf8');
    // JSON is YAML too, and what kubectl sends (apply patches): JSON.parse is far faster than the YAML parser.
    if (startsWithBrace(raw)) {
      try {
        return JSON.parse(text);
      } catch {
        // not JSON after all: YAML's parser decides, with YAML's errors
      }
    }
    try {
      return parseYaml(text);
    } catch (err) {
      // The parser's own failures (a stack overflow on hostile input included) are malformed bodies too.
      if (err instanceof ApiError) throw err;
      throw errors.badRequest(`error converting YAML to JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** A document's text as an entry of a block sequence that is not indented under its key. */
function sequenceEntry(text: string): string {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return lines.map((line, i) => (i === 0 ? `- ${line}` : line === '' ? line : `  ${line}`)).join('\n') + '\n';
}

function startsWithBrace(raw: Buffer): boolean {
  for (const byte of raw) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b;
  }
  return false;
}
