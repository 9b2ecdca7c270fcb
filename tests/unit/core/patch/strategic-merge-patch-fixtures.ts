import { mergeModel, type MergeModel } from '../../../../schemas/merge-strategy.js';
import type { JSONSchemaProps } from '../../../../lib/openapi/json-schema-props.js';
import { applyStrategicMergePatch } from '../../../../core/patch/strategic-merge-patch.js';
import { withObjectMeta } from '../../../../schemas/object-meta-model.js';

const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };
const obj = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });
const mergeBy = (key: string, items: JSONSchemaProps, strategy = 'merge'): JSONSchemaProps => ({
  type: 'array',
  'x-kubernetes-patch-strategy': strategy,
  'x-kubernetes-patch-merge-key': key,
  items,
});

/** A Pod-like kind with kube's patch markers, plus CRD list types (`ports`, `tags`) and schemaless fields. */
const schema: JSONSchemaProps = obj({
  metadata: { type: 'object' },
  spec: obj({
    containers: mergeBy(
      'name',
      obj({
        name: str,
        image: str,
        args: { type: 'array', items: str },
        ports: mergeBy('containerPort', obj({ containerPort: int, protocol: str, name: str })),
        env: mergeBy('name', obj({ name: str, value: str })),
      }),
    ),
    volumes: mergeBy('name', obj({ name: str, emptyDir: obj({}), hostPath: obj({ path: str }) }), 'merge,retainKeys'),
    tolerations: { type: 'array', items: obj({ key: str, effect: str }) },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      items: obj({ port: int, protocol: str, name: str }),
    },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
    nodeSelector: { type: 'object', additionalProperties: str },
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  }),
});


export const podModel = withObjectMeta(mergeModel(schema));

export type Json = Record<string, unknown>;

export function smp(doc: Json, patch: Json): Json {
  return applyStrategicMergePatch(doc, patch, podModel);
}

/** A case of the tables: the live object, the patch and the expected result. */
export interface Case {
  title: string;
  doc: Json;
  patch: Json;
  want: Json;
}
