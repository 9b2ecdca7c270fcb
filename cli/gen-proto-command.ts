import { readFile, writeFile } from 'node:fs/promises';
import YAML, { type Document } from 'yaml';
import { fieldNumbersAnnotation, generateProto, propertyPath, type AddedNumber, type CrdSource } from '../generators/proto/index.js';
import { UsageError } from './usage-error.js';
import { parseGeneratorArgs } from './parse-command-line.js';

export const genProtoUsage = `Usage: kapi gen proto <crd.yaml> [flags]

Writes a .proto (proto2) for one version of a CustomResourceDefinition, from its structural schema. kapi serves
and accepts that protobuf for the custom resource (application/vnd.kubernetes.protobuf) once the CRD carries the
field numbers in its annotation ${fieldNumbersAnnotation}. Recorded numbers are kept; new fields get the next
free number of their message; removed fields stay reserved.

Flags:
  --version V       the CRD version (default: its storage version)
  -o, --output FILE write the .proto to FILE (default: standard output)
  --write-crd       write the updated field-number annotation back into the CRD file
  --crd NAME        the CRD to use when the file holds several
  -h, --help        show this help
`;

export interface GenProtoOptions {
  crdFile: string;
  version?: string;
  output?: string;
  writeCrd: boolean;
  crdName?: string;
}

/** Parses `kapi gen proto` arguments; `help` when the user asked for usage. Throws `UsageError` on a bad command line. */
export function parseGenProtoFlags(args: string[]): GenProtoOptions | 'help' {
  const { values, positionals } = parseGeneratorArgs(args, {
    version: { type: 'string' },
    output: { type: 'string', short: 'o' },
    'write-crd': { type: 'boolean', default: false },
    crd: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give one CRD file' : 'missing the CRD file');
  return {
    crdFile: positionals[0],
    writeCrd: values['write-crd'] ?? false,
    ...(values.version !== undefined ? { version: values.version } : {}),
    ...(values.output !== undefined ? { output: values.output } : {}),
    ...(values.crd !== undefined ? { crdName: values.crd } : {}),
  };
}

/** `kapi gen proto`: resolves with the exit code; throws for an unreadable file or a CRD it cannot describe. */
export async function genProto(args: string[]): Promise<number> {
  const opts = parseGenProtoFlags(args);
  if (opts === 'help') {
    process.stdout.write(genProtoUsage);
    return 0;
  }
  const docs = YAML.parseAllDocuments(await readFile(opts.crdFile, 'utf8'));
  const doc = pickCrd(opts, docs);
  const crd = checkCrdShape(opts.crdFile, doc.toJS());
  const generated = generateProto(crd, opts.version);
  if (opts.output !== undefined) await writeFile(opts.output, generated.proto);
  else process.stdout.write(generated.proto);
  const recorded = crd.metadata?.annotations?.[fieldNumbersAnnotation];
  const added = describeAdded(generated.added);
  if (opts.writeCrd && generated.annotation !== recorded) {
    doc.setIn(['metadata', 'annotations', fieldNumbersAnnotation], generated.annotation);
    await writeFile(opts.crdFile, docs.map((d) => d.toString({ lineWidth: 0 })).join(''));
    process.stderr.write(`kapi: wrote the field numbers of version ${generated.version} to ${opts.crdFile}${added ? ` (${added})` : ''}\n`);
  } else if (generated.added.length) {
    process.stderr.write(
      `kapi: not recorded in the CRD yet: ${added}; run again with --write-crd and apply the CRD, ` +
        `so they stay stable and kapi serves this protobuf\n`,
    );
  }
  return 0;
}

/** `3 new field numbers ($.spec.a=1, $.spec.b=2, $.status.c=1)`, the first few listed. */
function describeAdded(added: AddedNumber[]): string {
  if (!added.length) return '';
  const shown = added.slice(0, 5).map((a) => `${propertyPath(a.path, a.field)}=${a.number}`);
  return `${added.length} new field number${added.length === 1 ? '' : 's'} (${shown.join(', ')}${added.length > shown.length ? ', …' : ''})`;
}

function pickCrd(opts: GenProtoOptions, docs: Document[]): Document {
  for (const d of docs) if (d.errors.length) throw new Error(`${opts.crdFile}: ${d.errors[0].message}`);
  const crds = docs.filter((d) => d.get('kind') === 'CustomResourceDefinition');
  const named = opts.crdName === undefined ? crds : crds.filter((d) => d.getIn(['metadata', 'name']) === opts.crdName);
  if (named.length === 1) {
    const apiVersion = named[0].get('apiVersion');
    if (apiVersion !== 'apiextensions.k8s.io/v1') throw new Error(`${opts.crdFile}: the CRD must be apiextensions.k8s.io/v1, not ${String(apiVersion)}`);
    return named[0];
  }
  if (opts.crdName !== undefined) throw new Error(`${opts.crdFile} holds no CustomResourceDefinition named ${JSON.stringify(opts.crdName)}`);
  if (crds.length === 0) throw new Error(`${opts.crdFile} holds no CustomResourceDefinition`);
  const names = crds.map((d) => String(d.getIn(['metadata', 'name']))).join(', ');
  throw new UsageError(`${opts.crdFile} holds ${crds.length} CustomResourceDefinitions (${names}): pick one with --crd NAME`);
}

/** The fields the generator reads, checked so a malformed CRD gets a message instead of a crash. */
function checkCrdShape(file: string, value: unknown): CrdSource {
  const crd = value as CrdSource;
  const spec = crd?.spec;
  const ok =
    typeof spec?.group === 'string' &&
    typeof spec.names?.kind === 'string' &&
    Array.isArray(spec.versions) &&
    spec.versions.every((v) => typeof v?.name === 'string') &&
    (crd.metadata?.annotations === undefined || typeof crd.metadata.annotations === 'object');
  if (!ok) throw new Error(`${file}: the CRD needs spec.group, spec.names.kind and spec.versions[].name`);
  return crd;
}
