import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GenCrdError, generateCrds } from '../generators/crd/index.js';
import { UsageError } from './usage-error.js';
import { parseGeneratorArgs } from './parse-command-line.js';

export const genCrdUsage = `Usage: kapi gen crd <file.ts>... [flags]

Writes a CustomResourceDefinition for every kind whose TypeScript interface is marked
// +kubebuilder:object:root=true, with controller-gen's markers (+groupName, +versionName, +kubebuilder:…) on the
types and fields. The versions of a kind, from several interfaces or files, become one CRD. Nothing is written
when an input has an error.

Flags:
  -o, --output DIR  write each CRD to DIR/<group>_<plural>.yaml (default: all CRDs to standard output)
  -h, --help        show this help
`;

export interface GenCrdOptions {
  files: string[];
  output?: string;
}

/** Parses `kapi gen crd` arguments; `help` when the user asked for usage. Throws `UsageError` on a bad command line. */
export function parseGenCrdFlags(args: string[]): GenCrdOptions | 'help' {
  const { values, positionals } = parseGeneratorArgs(args, { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new UsageError('missing the TypeScript files');
  return { files: positionals, ...(values.output !== undefined ? { output: values.output } : {}) };
}

/** Writes every file next to its final name first, then renames them all, so a failed write leaves no half file. */
async function writeAll(dir: string, files: { fileName: string; yaml: string }[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temps = await Promise.all(
    files.map(async (f) => {
      const temp = join(dir, `.${f.fileName}.${process.pid}.tmp`);
      await writeFile(temp, f.yaml);
      return { temp, target: join(dir, f.fileName) };
    }),
  );
  for (const { temp, target } of temps) await rename(temp, target);
}

/** `kapi gen crd`: resolves with the exit code; input errors are printed one a line, with file:line:column. */
export async function genCrd(args: string[]): Promise<number> {
  const opts = parseGenCrdFlags(args);
  if (opts === 'help') {
    process.stdout.write(genCrdUsage);
    return 0;
  }
  let generated;
  try {
    generated = generateCrds(opts.files);
  } catch (err) {
    if (!(err instanceof GenCrdError)) throw err;
    process.stderr.write(err.problems.map((p) => `kapi: ${p}\n`).join(''));
    return 1;
  }
  if (opts.output === undefined) {
    process.stdout.write(generated.map((g) => g.yaml).join(''));
    return 0;
  }
  await writeAll(opts.output, generated);
  for (const g of generated) process.stderr.write(`kapi: wrote ${join(opts.output, g.fileName)}\n`);
  return 0;
}
