import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateTypes, type GenTypesInput } from '../generators/types/index.js';
import { UsageError } from './usage-error.js';
import { parseGeneratorArgs } from './parse-command-line.js';

export const genTypesUsage = `Usage: kapi gen types <crd.yaml>... [flags]

Writes TypeScript types and a typed client for every served version of each CustomResourceDefinition in the files:
<kind>.<version>.ts with the kind's interfaces (from its structural schema), its List, a client (list, get, create,
update, patch, apply, delete, deleteCollection, watch; the status verbs when the version has the status subresource)
and an informer. The files import the client runtime from the kapi package.

Flags:
  -o, --output DIR     the folder to write to (default: the current folder)
  --import-from MOD    the module the files import kapi from (default: kapi)
  -h, --help           show this help
`;

export interface GenTypesOptions {
  crdFiles: string[];
  output: string;
  importFrom: string;
}

/** Parses `kapi gen types` arguments; `help` when the user asked for usage. Throws `UsageError` on a bad command line. */
export function parseGenTypesFlags(args: string[]): GenTypesOptions | 'help' {
  const { values, positionals } = parseGeneratorArgs(args, {
    output: { type: 'string', short: 'o', default: '.' },
    'import-from': { type: 'string', default: 'kapi' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (!positionals.length) throw new UsageError('missing the CRD files');
  return { crdFiles: positionals, output: values.output, importFrom: values['import-from'] };
}

/**
 * `kapi gen types`: resolves with the exit code; throws for an unreadable file or a CRD it cannot describe. Every
 * file is generated before the first is written, so bad input leaves the output folder as it was.
 */
export async function genTypes(args: string[]): Promise<number> {
  const opts = parseGenTypesFlags(args);
  if (opts === 'help') {
    process.stdout.write(genTypesUsage);
    return 0;
  }
  const inputs: GenTypesInput[] = [];
  for (const file of opts.crdFiles) inputs.push({ file, text: await readFile(file, 'utf8') });
  const files = generateTypes(inputs, { importFrom: opts.importFrom });
  await mkdir(opts.output, { recursive: true });
  for (const f of files) await writeFile(join(opts.output, f.path), f.text);
  process.stderr.write(`kapi: wrote ${files.map((f) => join(opts.output, f.path)).join(', ')}\n`);
  return 0;
}
