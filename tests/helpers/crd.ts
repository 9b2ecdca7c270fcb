// A CustomResourceDefinition with one served storage version v1, for tests that need a kind of their own.

export interface OneVersionCrd {
  group: string;
  plural: string;
  kind: string;
  /** v1's openAPIV3Schema. */
  schema: Record<string, unknown>;
  scope?: 'Namespaced' | 'Cluster';
}

export function oneVersionCrd({ group, plural, kind, schema, scope = 'Namespaced' }: OneVersionCrd) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}
