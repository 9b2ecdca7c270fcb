import test from 'ava';
import { typeCheckPolicy } from '../../../../admission/policy/type-checker.js';
import { policyExpressionChecker } from '../../../../admission/policy/policy-expression-checker.js';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';
import type { ResourceType } from '../../../../core/contracts/resource-type.js';
import type { ValidatingAdmissionPolicy } from '../../../../builtin/admissionregistration/validating-admission-policy-types.js';

function kind(group: string, plural: string, kindName: string, properties: Record<string, unknown>): ResourceType {
  return {
    group,
    names: { plural, singular: plural, kind: kindName, listKind: `${kindName}List` },
    scope: 'Namespaced',
    allowUnconditionalUpdate: false,
    verbs: [],
    versions: [{ name: 'v1', served: true, storage: true, schema: { type: 'object', properties: { spec: { type: 'object', properties } } } as never }],
  };
}

const registry = new ResourceTypeRegistry();
registry.set(kind('example.com', 'widgets', 'Widget', { replicas: { type: 'integer' }, color: { type: 'string' } }));
registry.set(kind('example.com', 'gadgets', 'Gadget', { size: { type: 'integer' } }));
registry.set(kind('params.example.com', 'limits', 'Limit', { max: { type: 'integer' } }));

function policy(resources: string[], spec: Partial<NonNullable<ValidatingAdmissionPolicy['spec']>>): ValidatingAdmissionPolicy {
  return {
    metadata: { name: 'p' },
    spec: { matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources }] }, ...spec },
  };
}

test('each matched kind is checked; warnings name the kind as kube prints a GroupVersionKind', (t) => {
  const warnings = typeCheckPolicy(policy(['widgets', 'gadgets'], { validations: [{ expression: 'object.spec.replicas > 1' }] }), registry);
  t.deepEqual(warnings, [
    {
      fieldRef: 'spec.validations[0].expression',
      warning: "example.com/v1, Kind=Gadget: ERROR: <input>:1:12: undefined field 'replicas'\n | object.spec.replicas > 1\n | ...........^\n",
    },
  ]);
});

test('params are typed by the paramKind; variables compose; metadata is full ObjectMeta', (t) => {
  const spec = {
    paramKind: { apiVersion: 'params.example.com/v1', kind: 'Limit' },
    variables: [{ name: 'n', expression: 'object.spec.replicas' }],
    validations: [
      { expression: "variables.n <= params.spec.max && object.metadata.labels['a'] == 'b'" },
      { expression: 'params.spec.maximum > 0', messageExpression: "'color ' + object.spec.colour" },
    ],
  };
  const warnings = typeCheckPolicy(policy(['widgets'], spec), registry);
  t.deepEqual(
    warnings.map((w) => w.fieldRef),
    ['spec.validations[1].expression', 'spec.validations[1].messageExpression'],
  );
  t.regex(warnings[0].warning, /^example\.com\/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'maximum'\n/);
  t.regex(warnings[1].warning, /undefined field 'colour'/);
});

test('wildcards and unknown resources are not checked', (t) => {
  const bad = { validations: [{ expression: 'object.spec.nothing > 1' }] };
  t.deepEqual(typeCheckPolicy(policy(['*'], bad), registry), []);
  t.deepEqual(typeCheckPolicy(policy(['unknowns'], bad), registry), []);
  t.deepEqual(typeCheckPolicy(policy(['widgets/status'], bad), registry), []);
});

test('validation-time compilation: variables are visible only after they are declared; messageExpression has no authorizer', (t) => {
  const c = policyExpressionChecker.forPolicy({ hasParams: false, hasVariables: true });
  t.regex(c.variable('a', 'variables.b + 1')?.detail ?? '', /undefined field 'b'/);
  t.is(c.variable('b', '1'), undefined);
  t.is(c.validation('variables.b == 1'), undefined);
  t.regex(c.messageExpression("authorizer.path('/').check('get').reason()")?.detail ?? '', /undeclared reference to 'authorizer'/);
  t.is(c.auditAnnotation("string(variables.b)"), undefined);
  t.regex(c.matchCondition('params == null')?.detail ?? '', /undeclared reference to 'params'/);
  t.is(policyExpressionChecker.forPolicy({ hasParams: true, hasVariables: false }).matchCondition('params == null'), undefined);
  t.regex(policyExpressionChecker.forPolicy({ hasParams: false, hasVariables: false }).validation('variables.x')?.detail ?? '', /undeclared reference to 'variables'/);
});
