/**
 * A cluster-scoped CRD using every schema feature `kapi gen types` maps (descriptions, enums, int-or-string, nullable,
 * maps, arrays, an embedded resource, preserve-unknown-fields, a key that is not an identifier), with a second,
 * deprecated version and an unserved one.
 */
export const gizmosCrdYaml = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.kinds.example.com
spec:
  group: kinds.example.com
  scope: Cluster
  names: { plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList }
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      schema:
        openAPIV3Schema:
          type: object
          description: A gizmo with every schema feature.
          required: [spec]
          properties:
            spec:
              type: object
              description: |-
                What the gizmo should be.
                A comment cannot end early: */ stays inside.
              required: [size]
              properties:
                size: { type: string, enum: [small, large], description: The size. }
                level: { type: integer, enum: [1, 2, 3] }
                port: { x-kubernetes-int-or-string: true }
                note: { type: string, nullable: true }
                labels: { type: object, additionalProperties: { type: string } }
                limits:
                  type: object
                  additionalProperties:
                    type: object
                    properties:
                      max: { type: number }
                ports:
                  type: array
                  items:
                    type: object
                    required: [name]
                    properties:
                      name: { type: string }
                      protocol: { type: string, enum: [TCP, UDP], default: TCP }
                matrix: { type: array, items: { type: array, items: { type: integer } } }
                template: { type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true }
                extra:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                  properties:
                    known: { type: boolean }
                anything: { x-kubernetes-preserve-unknown-fields: true }
                dash-name: { type: string }
                empty: { type: object }
                choice: { type: string, anyOf: [{ pattern: '^a' }, { pattern: '^b' }] }
            status:
              type: object
              properties:
                phase: { type: string }
    - name: v1beta1
      served: true
      storage: false
      deprecated: true
      deprecationWarning: kinds.example.com/v1beta1 Gizmo is deprecated; use kinds.example.com/v1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: string }
    - name: v1alpha1
      served: false
      storage: false
      schema:
        openAPIV3Schema: { type: object }
`;
