import protobuf from 'protobufjs';
import { describeVersion } from '../../../../lib/proto/schema-to-proto.js';
import { fieldNumbersAnnotation, parseFieldNumbers } from '../../../../lib/proto/field-numbers.js';
import { renderProto } from '../../../../lib/proto/render-proto.js';
import type { ProtoFile } from '../../../../lib/proto/proto-model.js';
import { qualifiedName, type ResourceType } from '../../../../core/contracts/resource-type.js';
import type { ProtobufKind } from '../kinds.js';
import { kubeProtoRoot } from '../schema.js';
import { MessageJson } from './message-json.js';

/** A custom resource version's protobuf form: the resource's message and its list's. */
export interface CustomResourceKinds {
  readonly file: ProtoFile;
  readonly kind: ProtobufKind;
  readonly list: ProtobufKind;
}

let kubeDescriptor: protobuf.INamespace | undefined;

/** A fresh root holding kube's messages (ObjectMeta, ListMeta, IntOrString, …), for one generated file to join. */
function newKubeRoot(): protobuf.Root {
  kubeDescriptor ??= kubeProtoRoot.toJSON();
  return protobuf.Root.fromJSON(kubeDescriptor);
}

/**
 * Builds the protobuf form of one version of a custom resource from its CRD's field-number annotation, or returns
 * undefined (no annotation). The types are parsed from the very .proto text `kapi gen proto` writes, so the server
 * speaks exactly what a client generated from that file expects. Throws ProtoGenError when the annotation is
 * unusable or leaves a field of the schema without a number.
 */
export function buildCustomResourceKinds(rt: ResourceType, version: string): CustomResourceKinds | undefined {
  const annotation = rt.annotations?.[fieldNumbersAnnotation];
  const def = rt.versions.find((v) => v.name === version);
  if (annotation === undefined || !def) return undefined;
  const { file } = describeVersion(
    { group: rt.group, version, kind: rt.names.kind, listKind: rt.names.listKind, schema: def.schema, source: `CustomResourceDefinition ${qualifiedName(rt)}` },
    parseFieldNumbers(annotation).get(version),
    { assign: false },
  );
  const root = newKubeRoot();
  protobuf.parse(renderProto(file), root, { keepCase: true });
  root.resolveAll();
  const json = new MessageJson(file);
  const apiVersion = `${rt.group}/${version}`;
  const kind: ProtobufKind = {
    type: root.lookupType(`${file.package}.${file.kind}`),
    toJSON: (m) => json.toJSON(file.kind, m),
    fromJSON: (o) => json.fromJSON(file.kind, o),
  };
  const list: ProtobufKind = {
    type: root.lookupType(`${file.package}.${file.listKind}`),
    // Items of a custom resource list carry apiVersion and kind in JSON, as kube's unstructured lists do.
    toJSON: (m) => {
      const { items, ...rest } = json.toJSON(file.listKind, m);
      return { ...rest, items: ((items as object[] | undefined) ?? []).map((item) => ({ apiVersion, kind: rt.names.kind, ...item })) };
    },
    fromJSON: (o) => json.fromJSON(file.listKind, o),
  };
  return { file, kind, list };
}
