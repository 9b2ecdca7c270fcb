/**
 * `kapi gen proto`: a `.proto` for a CustomResourceDefinition version, generated from its structural schema, with
 * field numbers kept stable in the CRD's `proto.kapi.dev/field-numbers` annotation. kapi's server builds the
 * protobuf it serves for that version from the same description.
 */
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { fieldNumbersAnnotation, formatFieldNumbers, parseFieldNumbers } from '../../lib/proto/field-numbers.js';
import { ProtoGenError } from '../../lib/proto/proto-gen-error.js';
import type { ProtoFile } from '../../lib/proto/proto-model.js';
import { renderProto } from '../../lib/proto/render-proto.js';
import { describeVersion, type AddedNumber } from '../../lib/proto/schema-to-proto.js';

export { fieldNumbersAnnotation, formatFieldNumbers, parseFieldNumbers, type FieldNumbers } from '../../lib/proto/field-numbers.js';
export { ProtoGenError } from '../../lib/proto/proto-gen-error.js';
export type { ListShape, MapShape, ProtoField, ProtoFile, ProtoMessage, Shape } from '../../lib/proto/proto-model.js';
export { propertyPath } from '../../lib/proto/proto-names.js';
export { renderProto } from '../../lib/proto/render-proto.js';
export { describeVersion, type AddedNumber, type ProtoDescription, type ProtoSource } from '../../lib/proto/schema-to-proto.js';

/** The CustomResourceDefinition fields the generator reads. */
export interface CrdSource {
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; listKind?: string };
    versions: { name: string; storage?: boolean; schema?: { openAPIV3Schema?: JSONSchemaProps } }[];
  };
}

export interface GeneratedProto {
  version: string;
  file: ProtoFile;
  /** The .proto text. */
  proto: string;
  /** The annotation's new value (every version's numbers, with those given to new fields). */
  annotation: string;
  /** Numbers given by this run: absent from the annotation until it is written back. */
  added: AddedNumber[];
}

/**
 * Generates the .proto of one version of a CRD (default: its storage version), keeping the numbers its annotation
 * records and numbering new fields. Throws ProtoGenError for an unknown version, an unusable annotation or a schema
 * protobuf cannot carry.
 */
export function generateProto(crd: CrdSource, version?: string): GeneratedProto {
  const versions = crd.spec.versions;
  const chosen = version === undefined ? versions.find((v) => v.storage) ?? versions[0] : versions.find((v) => v.name === version);
  if (!chosen) {
    const known = versions.map((v) => v.name).join(', ');
    throw new ProtoGenError(version === undefined ? 'the CRD has no versions' : `the CRD has no version ${JSON.stringify(version)} (versions: ${known})`);
  }
  const numbers = parseFieldNumbers(crd.metadata?.annotations?.[fieldNumbersAnnotation]);
  const name = crd.metadata?.name;
  const description = describeVersion(
    {
      group: crd.spec.group,
      version: chosen.name,
      kind: crd.spec.names.kind,
      listKind: crd.spec.names.listKind || `${crd.spec.names.kind}List`,
      schema: chosen.schema?.openAPIV3Schema,
      ...(name ? { source: `CustomResourceDefinition ${name}` } : {}),
    },
    numbers.get(chosen.name),
    { assign: true },
  );
  numbers.set(chosen.name, description.numbers);
  return {
    version: chosen.name,
    file: description.file,
    proto: renderProto(description.file),
    annotation: formatFieldNumbers(numbers),
    added: description.added,
  };
}
