// The ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding resources: discovery, defaults, kube's
// validation (422 texts), table columns, and the type-checking status the status controller writes.
import test from 'ava';
import { expectStatus, suffix, useTestServer } from '../helpers/test-server.js';
import { VAP, VAPB, binding, policy } from '../helpers/vap.js';

const server = useTestServer({ widgetsCrd: true });

test('discovery lists both resources, cluster-scoped, in the api-extensions category', async (t) => {
  const res = await server.request('GET', '/apis/admissionregistration.k8s.io/v1');
  t.is(res.status, 200);
  const byName = new Map(res.body.resources.map((r: { name: string }) => [r.name, r]));
  t.like(byName.get('validatingadmissionpolicies'), { namespaced: false, kind: 'ValidatingAdmissionPolicy', categories: ['api-extensions'] });
  t.like(byName.get('validatingadmissionpolicies/status'), { namespaced: false, kind: 'ValidatingAdmissionPolicy' });
  t.like(byName.get('validatingadmissionpolicybindings'), { namespaced: false, kind: 'ValidatingAdmissionPolicyBinding', categories: ['api-extensions'] });
  t.false(byName.has('validatingadmissionpolicybindings/status'));
  t.is((byName.get('validatingadmissionpolicies') as { shortNames?: string[] }).shortNames, undefined);
});

test('defaults: failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule scope *', async (t) => {
  const name = `defaults-${suffix()}`;
  const res = await server.request('POST', VAP, {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }] }, validations: [{ expression: 'true' }] },
    },
  });
  t.is(res.status, 201, res.text);
  t.deepEqual(res.body.spec, {
    failurePolicy: 'Fail',
    matchConstraints: {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'], scope: '*' }],
    },
    validations: [{ expression: 'true' }],
  });
  t.deepEqual(res.body.status, {});
  t.is(res.body.metadata.generation, 1);
  const b = await server.request('POST', VAPB, {
    body: binding(`defaults-${suffix()}`, name, { matchResources: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] } }),
  });
  t.is(b.status, 201, b.text);
  t.deepEqual(b.body.spec.matchResources, {
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'], scope: '*' }],
  });
});

test('invalid CEL is refused with the compiler output as kube prints it', async (t) => {
  const name = `bad-${suffix()}`;
  const res = await server.request('POST', VAP, { body: policy(name, {}, { validations: [{ expression: 'object.spec.replicas >' }, { expression: 'object.spec.x', messageExpression: '1' }] }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const causes = res.body.details.causes;
  t.deepEqual(
    causes.map((c: { field: string }) => c.field),
    ['spec.validations[0].expression', 'spec.validations[1].expression', 'spec.validations[1].messageExpression'],
  );
  t.is(causes[0].reason, 'FieldValueInvalid');
  t.regex(causes[0].message, /^Invalid value: "object\.spec\.replicas >": compilation failed: ERROR: <input>:1:23: Syntax error: /);
  t.is(causes[1].message, 'Invalid value: "object.spec.x": must evaluate to bool but got dyn');
  t.is(causes[2].message, 'Invalid value: "1": must evaluate to string but got int');
  t.true(res.body.message.startsWith(`ValidatingAdmissionPolicy.admissionregistration.k8s.io "${name}" is invalid: [spec.validations[0].expression: Invalid value: "object.spec.replicas >": compilation failed: ERROR: <input>:1:23:`));
});

test('required fields and unsupported values of a policy', async (t) => {
  const name = `req-${suffix()}`;
  const res = await server.request('POST', VAP, {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Sometimes',
        paramKind: { apiVersion: 'a/b/c', kind: '' },
        matchConstraints: { resourceRules: [], excludeResourceRules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'], scope: 'Galaxy' }] },
        matchConditions: [{ name: 'x', expression: 'true' }, { name: 'x', expression: 'params == null' }],
        variables: [{ name: 'in', expression: '1' }],
      },
    },
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(
    res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
    [
      'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
      'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      'spec.paramKind.kind: Required value',
      'spec.matchConstraints.excludeResourceRules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
      'spec.matchConstraints.excludeResourceRules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources',
      'spec.matchConstraints.excludeResourceRules[0].scope: Unsupported value: "Galaxy": supported values: "*", "Cluster", "Namespaced"',
      'spec.matchConstraints.resourceRules: Required value',
      'spec.matchConditions[1].name: Duplicate value: "x"',
      'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier',
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ],
  );
});

test('binding validation: actions unique, supported, not Deny with Warn, non-empty; paramRef name xor selector', async (t) => {
  const check = async (spec: Record<string, unknown>, expected: string[]) => {
    const res = await server.request('POST', VAPB, {
      body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `b-${suffix()}` }, spec },
    });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.deepEqual(
      res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      expected,
    );
  };
  await check({ policyName: 'p', validationActions: ['Deny', 'Warn', 'Deny', 'Shout'] }, [
    'spec.validationActions[2]: Duplicate value: "Deny"',
    'spec.validationActions[3]: Unsupported value: "Shout": supported values: "Audit", "Deny", "Warn"',
    'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn", "Deny", "Shout"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
  ]);
  await check({ validationActions: [] }, ['spec.policyName: Required value', 'spec.validationActions: Required value: at least one validation action is required']);
  await check({ policyName: 'p', validationActions: ['Audit'], paramRef: { name: 'x', selector: {} } }, [
    'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Required value',
  ]);
  await check({ policyName: 'p', validationActions: ['Audit'], paramRef: { parameterNotFoundAction: 'Maybe' } }, [
    'spec.paramRef: Required value: one of name or selector must be specified',
    'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
  ]);
  await check({ policyName: 'p', validationActions: ['Deny'], matchResources: { objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } } }, [
    "spec.matchResouces.objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
  ]);
});

test('tables: VALIDATIONS and PARAMKIND; POLICYNAME and PARAMREF', async (t) => {
  const id = suffix();
  t.is((await server.request('POST', VAP, { body: policy(`table-${id}`, {}, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }, { expression: 'true' }] }) })).status, 201);
  t.is((await server.request('POST', VAPB, { body: binding(`table-${id}`, `table-${id}`, { paramRef: { name: 'cfg', parameterNotFoundAction: 'Allow' } }) })).status, 201);
  t.is(
    (await server.request('POST', VAPB, {
      body: binding(`table-sel-${id}`, `table-${id}`, { paramRef: { selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] }, parameterNotFoundAction: 'Allow' } }),
    })).status,
    201,
  );
  const accept = { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } };
  const pt = await server.request('GET', `${VAP}/table-${id}`, accept);
  t.deepEqual(
    pt.body.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`),
    ['Name:string', 'Validations:integer', 'ParamKind:string', 'Age:string'],
  );
  t.deepEqual(pt.body.rows[0].cells.slice(0, 3), [`table-${id}`, 2, 'v1/ConfigMap']);
  const bt = await server.request('GET', `${VAPB}/table-${id}`, accept);
  t.deepEqual(
    bt.body.columnDefinitions.map((c: { name: string }) => c.name),
    ['Name', 'PolicyName', 'ParamRef', 'Age'],
  );
  t.deepEqual(bt.body.rows[0].cells.slice(0, 3), [`table-${id}`, `table-${id}`, '*/cfg']);
  const st = await server.request('GET', `${VAPB}/table-sel-${id}`, accept);
  t.is(st.body.rows[0].cells[2], '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}');
});

test('type checking: warnings against the matched kinds in status, observedGeneration follows the spec', async (t) => {
  const name = `typed-${suffix()}`;
  const res = await server.request('POST', VAP, {
    body: policy(name, {}, {
      validations: [
        { expression: 'object.spec.replicaz > 1', messageExpression: "'replicas: ' + string(object.spec.replicas)" },
        { expression: 'object.spec.replicas > 1', messageExpression: "'replicas: ' + object.spec.replicas" },
      ],
    }),
  });
  t.is(res.status, 201, res.text);
  const typed = await server.waitFor(async () => {
    const r = await server.request('GET', `${VAP}/${name}`);
    return r.body.status?.observedGeneration === 1 ? r.body : undefined;
  });
  t.deepEqual(typed.status.typeChecking, {
    expressionWarnings: [
      {
        fieldRef: 'spec.validations[0].expression',
        warning: "example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz > 1\n | ...........^\n",
      },
      {
        fieldRef: 'spec.validations[1].messageExpression',
        warning: "example.com/v1, Kind=Widget: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'\n | 'replicas: ' + object.spec.replicas\n | .............^\n",
      },
    ],
  });
  const fixed = await server.request('PATCH', `${VAP}/${name}`, {
    body: { spec: { validations: [{ expression: 'object.spec.replicas > 1' }] } },
    contentType: 'application/merge-patch+json',
  });
  t.is(fixed.body.metadata.generation, 2);
  const clean = await server.waitFor(async () => {
    const r = await server.request('GET', `${VAP}/${name}`);
    return r.body.status?.observedGeneration === 2 ? r.body : undefined;
  });
  t.deepEqual(clean.status, { observedGeneration: 2, typeChecking: {} });
});

test('values of the wrong type are refused as kube decodes them (400, the first wrong field), never a crash', async (t) => {
  const bad = await server.request('POST', VAP, { body: policy(`types-${suffix()}`, {}, { validations: 'object.spec.x', failurePolicy: 7 }) });
  expectStatus(t, bad, {
    code: 400,
    reason: 'BadRequest',
    message:
      'ValidatingAdmissionPolicy in version "v1" cannot be handled as a ValidatingAdmissionPolicy: json: cannot unmarshal string into Go struct field ValidatingAdmissionPolicySpec.spec.validations of type []v1.Validation',
  });
  const b = await server.request('POST', VAPB, { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `types-${suffix()}` }, spec: 'none' } });
  expectStatus(t, b, {
    code: 400,
    reason: 'BadRequest',
    message:
      'ValidatingAdmissionPolicyBinding in version "v1" cannot be handled as a ValidatingAdmissionPolicyBinding: json: cannot unmarshal string into Go struct field ValidatingAdmissionPolicyBinding.spec of type v1.ValidatingAdmissionPolicyBindingSpec',
  });
});

test('the status subresource takes only status, validated', async (t) => {
  const name = `status-${suffix()}`;
  t.is((await server.request('POST', VAP, { body: policy(name, {}, { validations: [{ expression: 'true' }] }) })).status, 201);
  const current = await server.waitFor(async () => {
    const r = await server.request('GET', `${VAP}/${name}`);
    return r.body.status?.observedGeneration === 1 ? r.body : undefined;
  });
  const bad = await server.request('PUT', `${VAP}/${name}/status`, { body: { ...current, status: { typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: '' }] } } } });
  expectStatus(t, bad, { code: 422, reason: 'Invalid' });
  t.is(bad.body.details.causes[0].field, 'status.typeChecking.expressionWarnings[0].warning');
  const ok = await server.request('PUT', `${VAP}/${name}/status`, {
    body: { ...current, spec: { ...current.spec, failurePolicy: 'Ignore' }, status: { observedGeneration: 1, typeChecking: { expressionWarnings: [{ fieldRef: 'x', warning: 'w' }] } } },
  });
  t.is(ok.status, 200, ok.text);
  t.is(ok.body.spec.failurePolicy, 'Fail', 'spec is kept');
  t.deepEqual(ok.body.status.typeChecking.expressionWarnings, [{ fieldRef: 'x', warning: 'w' }]);
});
