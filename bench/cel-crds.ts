/**
 * The CEL workload's resources: two CRDs identical but for their names and ten `x-kubernetes-validations` rules on
 * `spec` — `plain.example.com` (kind Plain, no rules) and `ruled.example.com` (kind Ruled) — and the objects POSTed
 * to both. The names have the same lengths, so both phases move bodies of exactly the same size.
 */

export type CelKind = 'Plain' | 'Ruled';

export const celGroupVersionPath = '/apis/example.com/v1';

/** The plural (and CRD name prefix) of each kind. */
export const celPlural: Record<CelKind, string> = { Plain: 'plain', Ruled: 'ruled' };

export function celCollectionPath(kind: CelKind): string {
  return `${celGroupVersionPath}/namespaces/default/${celPlural[kind]}`;
}

/**
 * The rules, over realistic spec fields. Nine run on create; the transition rule (`oldSelf`) only on update.
 * Every rule holds for `celSpec`.
 */
export const celRules: { rule: string; message: string }[] = [
  { rule: 'size(self.name) >= 3 && size(self.name) <= 40', message: 'name must be 3 to 40 characters' },
  { rule: "self.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')", message: 'name must be a DNS label' },
  { rule: "self.image.startsWith('registry.example.com/')", message: 'image must come from registry.example.com' },
  { rule: "self.image.contains(':') && !self.image.endsWith(':latest')", message: 'image must be pinned to a tag other than latest' },
  { rule: 'self.replicas >= 1 && self.replicas <= 50', message: 'replicas must be between 1 and 50' },
  { rule: 'self.port >= 1024 && self.port <= 65535', message: 'port must be unprivileged' },
  { rule: "self.tags.all(t, size(t) <= 20 && t.matches('^[a-z0-9-]+$'))", message: 'tags must be short lower-case words' },
  { rule: "'team' in self.labels", message: 'labels must name the team' },
  { rule: "self.labels.all(k, k == 'team' || k.startsWith('example.com/'))", message: 'label keys must be team or example.com/*' },
  { rule: 'self.name == oldSelf.name', message: 'name is immutable' },
];

/** The structural schema both CRDs share; `rules` go on `spec`. */
function openAPIV3Schema(rules: typeof celRules): Record<string, unknown> {
  const shortString = (maxLength: number) => ({ type: 'string', maxLength });
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['name', 'image', 'replicas', 'port', 'tags', 'labels'],
        properties: {
          name: shortString(63),
          image: shortString(256),
          replicas: { type: 'integer', minimum: 0 },
          port: { type: 'integer', minimum: 0 },
          tags: { type: 'array', maxItems: 8, items: shortString(63) },
          labels: { type: 'object', maxProperties: 8, additionalProperties: shortString(63) },
        },
        ...(rules.length ? { 'x-kubernetes-validations': rules } : {}),
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  };
}

export function celCrd(kind: CelKind): Record<string, unknown> {
  const plural = celPlural[kind];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: plural, kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: openAPIV3Schema(kind === 'Ruled' ? celRules : []) },
        },
      ],
    },
  };
}

/** A spec every rule accepts: the same for both kinds, so only the rules differ between the two phases. */
export const celSpec = {
  name: 'checkout-api',
  image: 'registry.example.com/shop/checkout:1.4.2',
  replicas: 3,
  port: 8080,
  tags: ['web', 'payments', 'tier-1'],
  labels: { team: 'shop', 'example.com/owner': 'alice', 'example.com/tier': 'gold' },
};

export function celObject(kind: CelKind, name: string, spec: Record<string, unknown> = celSpec): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind, metadata: { name, namespace: 'default' }, spec };
}
