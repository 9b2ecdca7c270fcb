import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GenCrdError, generateCrds } from '../../../../generators/crd/index.js';
import { removeDir, tempDir } from '../../../helpers/kapi-process.js';

/** Writes the files into a fresh folder (removed after the test) and returns their paths and display paths. */
function sources(t: import('ava').ExecutionContext, files: Record<string, string>): { paths: string[]; shown: (name: string) => string } {
  const dir = tempDir('kapi-gen-crd-unit-');
  t.teardown(() => removeDir(dir));
  const paths = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  return { paths, shown: (name) => relative(process.cwd(), join(dir, name)) };
}

const header = (version = 'v1') => `// +groupName=example.com\n// +versionName=${version}\n\n`;

function root(body: string, markers = ''): string {
  return `// +kubebuilder:object:root=true\n${markers}export interface Gadget {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n${body}\n}\n`;
}

const objectMeta = 'interface ObjectMeta { name?: string }\n';

/** The problems of a refused input. */
function problems(t: import('ava').ExecutionContext, paths: string[]): readonly string[] {
  const err = t.throws(() => generateCrds(paths), { instanceOf: GenCrdError });
  return err?.problems ?? [];
}

test('schemas: optional from ?, descriptions, enums from unions, nullable, arrays, maps, nested and extended interfaces, open objects, branded types', (t) => {
  const { paths } = sources(t, {
    'gadget.ts': `${header()}${objectMeta}type Int32 = number;\ntype IntOrString = number | string;\n
interface Named {
  /** The name. */
  name: string;
}
/** A part. */
interface Part extends Named {
  count?: Int32;
}
/**
 * The spec.
 *
 * Second paragraph.
 */
interface GadgetSpec {
  // The mode.
  mode: 'fast' | 'slow';
  ratio?: number;
  on?: boolean;
  note?: string | null;
  parts?: Part[];
  matrix?: Array<Array<Int32>>;
  labels?: Record<string, string>;
  extra?: { [key: string]: boolean };
  port?: IntOrString;
  free?: unknown;
  inline?: { a?: string };
  open?: { known?: string; [key: string]: unknown };
}
${root('  spec?: GadgetSpec;')}`,
  });
  const [out] = generateCrds(paths);
  t.is(out.fileName, 'example.com_gadgets.yaml');
  t.deepEqual(out.crd.spec.names, { kind: 'Gadget', listKind: 'GadgetList', plural: 'gadgets', singular: 'gadget' });
  t.deepEqual(out.crd.spec.versions[0].schema.openAPIV3Schema.properties?.spec, {
    type: 'object',
    description: 'The spec.\n\nSecond paragraph.',
    required: ['mode'],
    properties: {
      mode: { type: 'string', enum: ['fast', 'slow'], description: 'The mode.' },
      ratio: { type: 'number' },
      on: { type: 'boolean' },
      note: { type: 'string', nullable: true },
      parts: {
        type: 'array',
        items: { type: 'object', description: 'A part.', required: ['name'], properties: { name: { type: 'string', description: 'The name.' }, count: { type: 'integer', format: 'int32' } } },
      },
      matrix: { type: 'array', items: { type: 'array', items: { type: 'integer', format: 'int32' } } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      extra: { type: 'object', additionalProperties: { type: 'boolean' } },
      port: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
      free: { 'x-kubernetes-preserve-unknown-fields': true },
      inline: { type: 'object', properties: { a: { type: 'string' } } },
      open: { type: 'object', properties: { known: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true },
    },
  });
});

test('several versions of a kind make one CRD, versions by name, the marked one stored; output is the same on every run', (t) => {
  const v1 = `${header('v1')}${objectMeta}${root('  spec?: { a?: string };', '// +kubebuilder:storageversion\n')}`;
  const v2 = `${header('v2')}${objectMeta}${root('  spec?: { b?: string };')}`;
  const { paths } = sources(t, { 'v2.ts': v2, 'v1.ts': v1 });
  const [first, ...rest] = generateCrds(paths);
  t.is(rest.length, 0);
  t.deepEqual(first.crd.spec.versions.map((v) => [v.name, v.served, v.storage]), [['v1', true, true], ['v2', true, false]]);
  t.is(generateCrds([...paths].reverse())[0].yaml, first.yaml);
});

test('the header comment holds +groupName and +versionName, also right above an import', (t) => {
  const { paths } = sources(t, {
    'other.ts': 'export interface ObjectMeta { name?: string }\n',
    'gadget.ts': `// +groupName=example.com\n// +versionName=v2\nimport type { ObjectMeta } from './other.js';\n\n${root('')}`,
  });
  const [out] = generateCrds([paths[1]]);
  t.is(out.crd.metadata.name, 'gadgets.example.com');
  t.is(out.crd.spec.versions[0].name, 'v2');
});

test('TypeScript that does not compile: tsc\'s errors with file:line:column', (t) => {
  const { paths, shown } = sources(t, { 'bad.ts': `${header()}${root('  spec?: Missing;')}` });
  t.deepEqual(problems(t, paths), [
    `${shown('bad.ts')}:8:14: error TS2304: Cannot find name 'ObjectMeta'.`,
    `${shown('bad.ts')}:9:10: error TS2304: Cannot find name 'Missing'.`,
  ]);
});

test('unknown and misplaced markers point at their line', (t) => {
  const unknown = sources(t, { 'a.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:MaxLenght=3\n  name?: string;')}` });
  t.deepEqual(problems(t, unknown.paths), [`${unknown.shown('a.ts')}:10:3: unknown marker +kubebuilder:validation:MaxLenght`]);
  const misplaced = sources(t, { 'b.ts': `${header()}${objectMeta}${root('  // +kubebuilder:subresource:status\n  name?: string;')}` });
  t.deepEqual(problems(t, misplaced.paths), [`${misplaced.shown('b.ts')}:10:3: +kubebuilder:subresource:status belongs on a root type, not on a field`]);
  const wrongType = sources(t, { 'c.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:MinLength=1\n  size?: number;')}` });
  t.deepEqual(problems(t, wrongType.paths), [`${wrongType.shown('c.ts')}:10:3: +kubebuilder:validation:MinLength applies to strings, not to type number`]);
});

test('conflicting markers: Minimum > Maximum, +optional with +required, a marker twice', (t) => {
  const bounds = sources(t, { 'a.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:Minimum=5\n  // +kubebuilder:validation:Maximum=3\n  size?: number;')}` });
  t.deepEqual(problems(t, bounds.paths), [`${bounds.shown('a.ts')}:11:3: minimum 5 is greater than maximum 3`]);
  const both = sources(t, { 'b.ts': `${header()}${objectMeta}${root('  // +required\n  // +optional\n  size?: number;')}` });
  t.deepEqual(problems(t, both.paths), [`${both.shown('b.ts')}:11:3: +optional contradicts +required on the same field`]);
  const twice = sources(t, { 'c.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:Maximum=5\n  // +kubebuilder:validation:Maximum=6\n  size?: number;')}` });
  t.deepEqual(problems(t, twice.paths), [`${twice.shown('c.ts')}:11:3: +kubebuilder:validation:Maximum is given more than once`]);
});

test('storage versions: two marked, or none of several, is refused', (t) => {
  const marked = '// +kubebuilder:storageversion\n';
  const two = sources(t, { 'v1.ts': `${header('v1')}${objectMeta}${root('', marked)}`, 'v2.ts': `${header('v2')}${objectMeta}${root('', marked)}` });
  t.deepEqual(problems(t, two.paths), [
    `${two.shown('v1.ts')}:6:1: kind Gadget: versions v1, v2 are all marked +kubebuilder:storageversion; exactly one must be`,
    `${two.shown('v2.ts')}:6:1: kind Gadget: versions v1, v2 are all marked +kubebuilder:storageversion; exactly one must be`,
  ]);
  const none = sources(t, { 'v1.ts': `${header('v1')}${objectMeta}${root('')}`, 'v2.ts': `${header('v2')}${objectMeta}${root('')}` });
  t.deepEqual(problems(t, none.paths), [`${none.shown('v1.ts')}:6:18: kind Gadget has versions v1, v2 and none is marked +kubebuilder:storageversion; exactly one must be`]);
});

test('a recursive type is refused where it refers to itself', (t) => {
  const { paths, shown } = sources(t, { 'a.ts': `${header()}${objectMeta}interface Node {\n  children?: Node[];\n}\n${root('  spec?: Node;')}` });
  t.deepEqual(problems(t, paths), [`${shown('a.ts')}:6:14: recursive type Node (Node → Node): a CRD schema cannot contain itself`]);
});

test('what kube would refuse in the schema is found with its source: a CEL rule that does not compile, an invalid default, uniqueItems', (t) => {
  const cel = sources(t, { 'a.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:XValidation:rule="self.size > \'a\'"\n  spec?: { size?: number };')}` });
  const [celProblem] = problems(t, cel.paths);
  t.true(celProblem.startsWith(`${cel.shown('a.ts')}:10:3: CustomResourceDefinition gadgets.example.com version v1: spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value:`), celProblem);
  t.regex(celProblem, /compilation failed: ERROR: <input>:1:11: found no matching overload for '_>_'/);
  const def = sources(t, { 'b.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:Maximum=3\n  // +kubebuilder:default=5\n  size?: number;')}` });
  t.deepEqual(problems(t, def.paths), [
    `${def.shown('b.ts')}:12:3: CustomResourceDefinition gadgets.example.com version v1: spec.versions[0].schema.openAPIV3Schema.properties[size].default: Invalid value: 5:  in body should be less than or equal to 3`,
  ]);
  const unique = sources(t, { 'c.ts': `${header()}${objectMeta}${root('  // +kubebuilder:validation:UniqueItems=true\n  tags?: string[];')}` });
  t.deepEqual(problems(t, unique.paths), [
    `${unique.shown('c.ts')}:11:3: CustomResourceDefinition gadgets.example.com version v1: spec.versions[0].schema.openAPIV3Schema.properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
  ]);
});
