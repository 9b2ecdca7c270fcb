import test from 'ava';
import { definitionName } from '../../../../core/openapi/definition-names.js';
import { toOperationId } from '../../../../core/openapi/operation-id.js';
import { toSwaggerSchema } from '../../../../core/openapi/swagger-schema.js';

test('definition names follow kube: Go packages for built-ins, the reversed group for custom resources', (t) => {
  t.is(definitionName('', 'v1', 'Namespace', false), 'io.k8s.api.core.v1.Namespace');
  t.is(definitionName('apps', 'v1', 'Deployment', false), 'io.k8s.api.apps.v1.Deployment');
  t.is(definitionName('rbac.authorization.k8s.io', 'v1', 'Role', false), 'io.k8s.api.rbac.v1.Role');
  t.is(definitionName('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', false), 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
  t.is(definitionName('apiregistration.k8s.io', 'v1', 'APIService', false), 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService');
  t.is(definitionName('example.com', 'v1', 'Widget', true), 'com.example.v1.Widget');
  t.is(definitionName('stable.example.com', 'v1beta1', 'CronTab', true), 'com.example.stable.v1beta1.CronTab');
});

test('operation IDs drop separators and capitalize what follows them', (t) => {
  t.is(toOperationId('example.com', true), 'ExampleCom');
  t.is(toOperationId('rbac.authorization', false), 'rbacAuthorization');
  t.is(toOperationId('v1beta1', true), 'V1beta1');
  t.is(toOperationId('my-group.io', true), 'MyGroupIo');
});

test('Swagger schemas drop what OpenAPI v2 and kubectl cannot take, as kube does for CRDs', (t) => {
  t.deepEqual(
    toSwaggerSchema({
      type: 'object',
      required: ['a', 'b'],
      properties: {
        a: { type: 'string', nullable: true },
        b: { type: 'integer', oneOf: [{ minimum: 1 }] },
        c: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { d: { type: 'string' } } },
        e: { type: 'array', nullable: true, items: { type: 'string' } },
        ref: { allOf: [{ $ref: '#/components/schemas/x.Y' }], description: 'a y' },
      },
    }),
    {
      type: 'object',
      required: ['b'],
      properties: {
        a: {},
        b: { type: 'integer' },
        c: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        e: {},
        ref: { $ref: '#/definitions/x.Y', description: 'a y' },
      },
    },
  );
});
