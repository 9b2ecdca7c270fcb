// `kapi gen types` on a CRD with every schema feature: the exact TypeScript of each served version, and the errors
// for input it cannot describe (file and path named).
import test from 'ava';
import { generateTypes, GenTypesError } from '../../../../generators/types/index.js';
import { gizmosCrdYaml } from '../../../helpers/gizmos-crd.js';

const generate = (text: string) => generateTypes([{ file: 'crds/gizmos.yaml', text }]);

test('every schema feature of a served version becomes its TypeScript', (t) => {
  const v1 = generate(gizmosCrdYaml).find((f) => f.path === 'gizmo.v1.ts');
  t.is(v1?.text, gizmoV1);
});

test('one file per served version: a deprecated one says so, one without the status subresource has no status verbs', (t) => {
  const files = generate(gizmosCrdYaml);
  t.deepEqual(
    files.map((f) => f.path),
    ['gizmo.v1.ts', 'gizmo.v1beta1.ts'],
  );
  const v1beta1 = files[1]!.text;
  t.true(v1beta1.includes('/** @deprecated kinds.example.com/v1beta1 Gizmo is deprecated; use kinds.example.com/v1 */\nexport interface Gizmo {\n'));
  t.true(v1beta1.includes('export function gizmoClient(api: ApiClient): TypedClient<Gizmo, GizmoList> {\n'));
  t.false(v1beta1.includes('TypedStatusClient'));
});

test('a namespaced kind: its client and informer take a namespace', (t) => {
  const namespaced = gizmosCrdYaml.replace('scope: Cluster', 'scope: Namespaced');
  const v1 = generate(namespaced)[0]!.text;
  t.true(v1.includes('export function gizmoClient(api: ApiClient, namespace?: string): TypedStatusClient<Gizmo, GizmoList> {\n  return new TypedStatusClient(api, gizmoResource, namespace);\n}'));
  t.true(v1.includes('export function gizmoInformer(api: ApiClient, namespace?: string, options?: InformerOptions): TypedInformer<Gizmo> {\n'));
  t.true(v1.includes('namespaced: true };'));
});

test('the descriptions of apiVersion, kind and metadata stay, on the root and on an embedded resource', (t) => {
  const described = gizmosCrdYaml
    .replace('          required: [spec]\n          properties:\n', '          required: [spec]\n          properties:\n            apiVersion: { type: string, description: The schema version. }\n            kind: { type: string, description: The kind. }\n            metadata: { type: object, description: The metadata. }\n')
    .replace(
      'template: { type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true }',
      'template: { type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, properties: { kind: { type: string, description: The kind made. } } }',
    );
  const v1 = generate(described)[0]!.text;
  t.true(v1.includes('export interface Gizmo {\n  /** The schema version. */\n  apiVersion: "kinds.example.com/v1";\n  /** The kind. */\n  kind: "Gizmo";\n  /** The metadata. */\n  metadata?: ObjectMeta;\n'), v1);
  t.true(v1.includes('export interface GizmoSpecTemplate {\n  apiVersion: string;\n  /** The kind made. */\n  kind: string;\n  metadata?: ObjectMeta;\n'), v1);
});

test('--import-from names the module the client runtime comes from', (t) => {
  const [file] = generateTypes([{ file: 'gizmos.yaml', text: gizmosCrdYaml }], { importFrom: '../../index.js' });
  t.true(file!.text.includes('type ResourceDescription } from "../../index.js";\n'));
});

const schemaPath = 'spec.versions[0].schema.openAPIV3Schema';
const badInputs: [string, string, string][] = [
  ['not YAML', 'kind: [unclosed', 'crds/gizmos.yaml: not YAML: '],
  ['no CRD', 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n', 'crds/gizmos.yaml: holds no CustomResourceDefinition'],
  ['an old CRD version', gizmosCrdYaml.replace('apiextensions.k8s.io/v1', 'apiextensions.k8s.io/v1beta1'), 'crds/gizmos.yaml: document 1: apiVersion must be apiextensions.k8s.io/v1, not "apiextensions.k8s.io/v1beta1"'],
  ['no kind name', gizmosCrdYaml.replace('kind: Gizmo,', 'kind: "",'), 'crds/gizmos.yaml: document 1: spec.names.kind must be a non-empty string'],
  [
    'a field without a type',
    gizmosCrdYaml.replace('note: { type: string, nullable: true }', 'note: { nullable: true }'),
    `crds/gizmos.yaml: gizmos.kinds.example.com version v1: ${schemaPath}.properties.spec.properties.note: has no type (only x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields may leave it out)`,
  ],
  [
    'an array without items',
    gizmosCrdYaml.replace('matrix: { type: array, items: { type: array, items: { type: integer } } }', 'matrix: { type: array }'),
    `crds/gizmos.yaml: gizmos.kinds.example.com version v1: ${schemaPath}.properties.spec.properties.matrix.items: an array needs one items schema`,
  ],
  [
    'an unknown type',
    gizmosCrdYaml.replace("choice: { type: string,", "choice: { type: text,"),
    `crds/gizmos.yaml: gizmos.kinds.example.com version v1: ${schemaPath}.properties.spec.properties.choice.type: unsupported type "text"`,
  ],
  [
    'a $ref',
    gizmosCrdYaml.replace('dash-name: { type: string }', "dash-name: { $ref: '#/definitions/x' }"),
    `crds/gizmos.yaml: gizmos.kinds.example.com version v1: ${schemaPath}.properties.spec.properties.dash-name.$ref: $ref is not allowed in a CRD schema`,
  ],
  [
    'properties beside additionalProperties',
    gizmosCrdYaml.replace('labels: { type: object, additionalProperties: { type: string } }', 'labels: { type: object, properties: { a: { type: string } }, additionalProperties: { type: string } }'),
    `crds/gizmos.yaml: gizmos.kinds.example.com version v1: ${schemaPath}.properties.spec.properties.labels: properties and additionalProperties together are not a structural schema`,
  ],
  [
    'an object as an enum value',
    gizmosCrdYaml.replace('level: { type: integer, enum: [1, 2, 3] }', 'level: { type: integer, enum: [1, { a: 1 }] }'),
    `crds/gizmos.yaml: gizmos.kinds.example.com version v1: ${schemaPath}.properties.spec.properties.level.enum[1]: only strings, numbers, booleans and null can be enum values`,
  ],
  [
    'a served version without a schema',
    gizmosCrdYaml.replace(/- name: v1beta1\n([\s\S]*?)      schema:\n[\s\S]*?(?=    - name: v1alpha1)/, '- name: v1beta1\n$1'),
    'crds/gizmos.yaml: gizmos.kinds.example.com version v1beta1: spec.versions[1].schema.openAPIV3Schema: missing (a served version needs a schema)',
  ],
];

for (const [what, text, message] of badInputs) {
  test(`bad input: ${what}`, (t) => {
    const err = t.throws(() => generate(text), { instanceOf: GenTypesError });
    t.true(err?.message.startsWith(message), err?.message);
  });
}

test('bad input: two CRDs of the same kind write the same file', (t) => {
  const other = gizmosCrdYaml.replace('gizmos.kinds.example.com', 'gizmos.other.example.com').replace('group: kinds.example.com', 'group: other.example.com');
  t.throws(() => generateTypes([{ file: 'a.yaml', text: gizmosCrdYaml }, { file: 'b.yaml', text: other }]), {
    instanceOf: GenTypesError,
    message: 'b.yaml (gizmos.other.example.com): writes gizmo.v1.ts, as a.yaml (gizmos.kinds.example.com) does',
  });
});

const gizmoV1 = `// generated by kapi gen types — do not edit.
// From gizmos.yaml: CustomResourceDefinition gizmos.kinds.example.com, version v1.
import { TypedStatusClient, TypedInformer, type ApiClient, type InformerOptions, type ListMeta, type ObjectMeta, type ResourceDescription } from "kapi";

/** A gizmo with every schema feature. */
export interface Gizmo {
  apiVersion: "kinds.example.com/v1";
  kind: "Gizmo";
  metadata?: ObjectMeta;
  /**
   * What the gizmo should be.
   * A comment cannot end early: *\\/ stays inside.
   */
  spec: GizmoSpec;
  status?: GizmoStatus;
}

/**
 * What the gizmo should be.
 * A comment cannot end early: *\\/ stays inside.
 */
export interface GizmoSpec {
  /** The size. */
  size: "small" | "large";
  level?: 1 | 2 | 3;
  port?: number | string;
  note?: string | null;
  labels?: Record<string, string>;
  limits?: Record<string, GizmoSpecLimitsValue>;
  ports?: GizmoSpecPortsItem[];
  matrix?: number[][];
  template?: GizmoSpecTemplate;
  extra?: GizmoSpecExtra;
  anything?: unknown;
  "dash-name"?: string;
  empty?: Record<string, never>;
  choice?: string;
}

export interface GizmoSpecLimitsValue {
  max?: number;
}

export interface GizmoSpecPortsItem {
  name: string;
  protocol?: "TCP" | "UDP";
}

export interface GizmoSpecTemplate {
  apiVersion: string;
  kind: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

export interface GizmoSpecExtra {
  known?: boolean;
  [field: string]: unknown;
}

export interface GizmoStatus {
  phase?: string;
}

/** A list of Gizmo objects. */
export interface GizmoList {
  apiVersion: "kinds.example.com/v1";
  kind: "GizmoList";
  metadata: ListMeta;
  items: Gizmo[];
}

export const gizmoResource: ResourceDescription = { group: "kinds.example.com", version: "v1", plural: "gizmos", kind: "Gizmo", namespaced: false };

/** A typed client of gizmos.kinds.example.com/v1. */
export function gizmoClient(api: ApiClient): TypedStatusClient<Gizmo, GizmoList> {
  return new TypedStatusClient(api, gizmoResource);
}

/** An informer of gizmos.kinds.example.com/v1: a local cache kept current by a watch. */
export function gizmoInformer(api: ApiClient, options?: InformerOptions): TypedInformer<Gizmo> {
  return new TypedInformer(gizmoClient(api), options);
}
`;
