/**
 * gadgets.example.org: a CRD with status and scale subresources whose replicas are bounded twice — the schema's
 * `maximum: 20` and a CEL rule allowing at most 10 — for the tests of writes through /scale.
 */
export const gadgetsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.org' },
  spec: {
    group: 'example.org',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { replicas: { type: 'integer', maximum: 20 }, size: { type: 'string' } },
                'x-kubernetes-validations': [{ rule: '!has(self.replicas) || self.replicas <= 10', message: 'at most 10 replicas' }],
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};
