import test from 'ava';
import { compilePolicy } from '../../../../admission/policy/compiled-policy.js';
import { validatePolicy } from '../../../../admission/policy/policy-validator.js';
import { attributesInputs } from '../../../../admission/policy/cel/admission-inputs.js';
import { dynValue } from '../../../../lib/cel/dyn-values.js';
import type { AdmissionAttributes } from '../../../../core/contracts/admission-attributes.js';
import { widgetAttributes } from '../../../helpers/admission-attributes.js';
import type { CelAuthorizer } from '../../../../admission/policy/cel/authorizer-library.js';
import type { ValidatingAdmissionPolicySpec } from '../../../../builtin/admissionregistration/validating-admission-policy-types.js';

function attrs(spec: Record<string, unknown>, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const object = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' }, spec };
  return widgetAttributes({ object, userInfo: { username: 'alice', groups: [] }, ...over });
}

const allowing: CelAuthorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };
const compile = (spec: ValidatingAdmissionPolicySpec) => compilePolicy({ metadata: { name: 'p' }, spec: { failurePolicy: 'Fail', ...spec } });
const run = (spec: ValidatingAdmissionPolicySpec, objSpec: Record<string, unknown>, params: unknown = null) =>
  validatePolicy(compile(spec), attributesInputs(attrs(objSpec), allowing), { params: dynValue(params), namespaceObject: null });

test('admit when true; deny with message, messageExpression or the expression; reason Invalid unless set', (t) => {
  const r = run(
    {
      validations: [
        { expression: 'object.spec.n > 0' },
        { expression: 'object.spec.n > 5', message: ' too small ' },
        { expression: 'object.spec.n > 6', messageExpression: "'n is ' + string(object.spec.n)", message: 'unused', reason: 'Forbidden' },
        { expression: ' object.spec.n > 7 ' },
        { expression: 'object.spec.n > 8', messageExpression: "'two\\nlines'", message: 'multi-line refused' },
      ],
    },
    { n: 1 },
  );
  t.deepEqual(r.decisions, [
    { action: 'admit', evaluation: 'admit', message: '', reason: '' },
    { action: 'deny', evaluation: 'deny', message: 'too small', reason: 'Invalid' },
    { action: 'deny', evaluation: 'deny', message: 'n is 1', reason: 'Forbidden' },
    { action: 'deny', evaluation: 'deny', message: 'failed expression: object.spec.n > 7', reason: 'Invalid' },
    { action: 'deny', evaluation: 'deny', message: 'multi-line refused', reason: 'Invalid' },
  ]);
});

test('runtime errors deny under Fail and admit under Ignore, with kube texts', (t) => {
  const spec = { validations: [{ expression: 'object.spec.missing == 1' }, { expression: "[1, 2, 3].all(x, x > 0) && 'abc'.matches('^a')" }] };
  t.deepEqual(run(spec, {}).decisions[0], { action: 'deny', evaluation: 'error', message: "expression 'object.spec.missing == 1' resulted in error: no such key: missing", reason: '' });
  t.is(run(spec, {}).decisions[1].action, 'admit');
  t.deepEqual(run({ ...spec, failurePolicy: 'Ignore' }, {}).decisions[0], { action: 'admit', evaluation: 'error', message: "expression 'object.spec.missing == 1' resulted in error: no such key: missing", reason: '' });
});

test('an expression over the per-call cost limit is an error; the policy budget stops the rest', (t) => {
  const heavy = 'object.spec.list.all(a, object.spec.list.all(b, object.spec.list.all(c, a + b + c >= 0)))';
  const list = Array.from({ length: 200 }, (_, i) => i);
  const r = run({ validations: [{ expression: heavy }] }, { list });
  t.deepEqual(r.decisions, [{ action: 'deny', evaluation: 'error', message: `expression '${heavy}' resulted in error: operation cancelled: actual cost limit exceeded`, reason: '' }]);
  const medium = 'object.spec.list.all(a, object.spec.list.all(b, a + b >= 0))';
  const many = run({ validations: Array.from({ length: 40 }, () => ({ expression: medium })) }, { list: Array.from({ length: 400 }, (_, i) => i) });
  t.deepEqual(many.decisions, [{ action: 'deny', evaluation: 'error', message: 'validation failed due to running out of cost budget, no further validation rules will be run', reason: '' }]);
});

test('variables: composed in order (later ones see earlier ones); errors name the variable', (t) => {
  const spec: ValidatingAdmissionPolicySpec = {
    variables: [
      { name: 'double', expression: 'object.spec.n * 2' },
      { name: 'quad', expression: 'variables.double * 2' },
      { name: 'broken', expression: 'object.spec.nothing' },
    ],
    validations: [
      { expression: 'variables.quad == 4 && variables.double == 2' },
      { expression: 'variables.broken == 1' },
    ],
  };
  const r = run(spec, { n: 1 });
  t.is(r.decisions[0].action, 'admit');
  t.deepEqual(r.decisions[1], {
    action: 'deny',
    evaluation: 'error',
    message: 'expression \'variables.broken == 1\' resulted in error: composited variable "broken" fails to evaluate: no such key: nothing',
    reason: '',
  });
});

test('params are visible; match conditions gate the validations', (t) => {
  const spec: ValidatingAdmissionPolicySpec = {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConditions: [{ name: 'big-only', expression: 'object.spec.n > params.data.floor' }],
    validations: [{ expression: 'object.spec.n <= params.data.max', messageExpression: "'max ' + string(params.data.max)" }],
  };
  const params = { data: { floor: 2, max: 5 } };
  t.deepEqual(run(spec, { n: 1 }, params), { decisions: [], auditAnnotations: [] }, 'condition false: nothing');
  t.deepEqual(run(spec, { n: 9 }, params).decisions, [{ action: 'deny', evaluation: 'deny', message: 'max 5', reason: 'Invalid' }]);
  const erroring = { ...spec, matchConditions: [{ name: 'x', expression: 'object.spec.none > 1' }] };
  t.deepEqual(run(erroring, { n: 9 }, params).decisions, [{ action: 'deny', evaluation: 'error', message: "expression 'object.spec.none > 1' resulted in error: no such key: none", reason: '' }]);
});

test('audit annotations: strings published (trimmed), null and empty excluded, errors per failurePolicy', (t) => {
  const spec: ValidatingAdmissionPolicySpec = {
    auditAnnotations: [
      { key: 'a', valueExpression: "' n=' + string(object.spec.n) + ' '" },
      { key: 'b', valueExpression: 'null' },
      { key: 'c', valueExpression: "''" },
      { key: 'd', valueExpression: "object.spec.n == 1 ? string(object.spec.missing) : 'x'" },
    ],
  };
  t.deepEqual(run(spec, { n: 1 }).auditAnnotations, [
    { key: 'a', action: 'publish', value: 'n=1' },
    { key: 'b', action: 'exclude' },
    { key: 'c', action: 'exclude' },
    { key: 'd', action: 'error', error: "expression 'object.spec.n == 1 ? string(object.spec.missing) : 'x'' resulted in error: no such key: missing" },
  ]);
  t.is(run({ ...spec, failurePolicy: 'Ignore' }, { n: 1 }).auditAnnotations[3].action, 'exclude');
});

test('on DELETE object is null and oldObject the stored object; request carries the operation', (t) => {
  const policy = compile({ validations: [{ expression: "object == null && oldObject.spec.n == 3 && request.operation == 'DELETE' && request.name == 'w'" }] });
  const del = attrs({ n: 3 }, { operation: 'DELETE' });
  t.is(validatePolicy(policy, attributesInputs(del, allowing)).decisions[0].action, 'admit');
});
