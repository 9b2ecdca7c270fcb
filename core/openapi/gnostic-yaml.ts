import { stringify } from 'yaml';

/**
 * The text of a gnostic `Any` (vendor extensions, defaults, examples, enum values): the JSON value as block-style YAML,
 * as gnostic's compiler writes it (yaml.v3, 4-space indent, no line folding). kubectl reads these texts back with
 * yaml.v2, a YAML 1.1 parser, so strings 1.1 would read as something else (`on`, `yes`, `1:20`) are quoted. A
 * multi-line string on its own is double-quoted with `\n` escapes: a literal block at the top level would be unindented,
 * which libyaml's descendants (yaml.v2 among them) do not read.
 */
export function gnosticYaml(value: unknown): string {
  const alone = typeof value === 'string' ? { blockQuote: false, singleQuote: false } : {};
  return stringify(value, { version: '1.1', indent: 4, lineWidth: 0, aliasDuplicateObjects: false, ...alone });
}
