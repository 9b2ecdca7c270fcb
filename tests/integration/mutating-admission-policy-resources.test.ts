// The MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding resources (admission: mutating-admission-policy.test.ts): served in
// v1, v1beta1 and v1alpha1, kube's defaults (failurePolicy; reinvocationPolicy is required, not defaulted), kube's
// validation (422 texts), table columns, Go decoding.
import test from 'ava';
import { expectStatus, suffix, useTestServer } from '../helpers/test-server.js';
import { MAP_VERSIONS, mapPath, mapbPath, mutatingBinding, mutatingPolicy } from '../helpers/map.js';

const server = useTestServer();

const causesOf = (res: { body: { details: { causes: { field: string; message: string }[] } } }) =>
  res.body.details.causes.map((c) => `${c.field}: ${c.message}`);

test('discovery lists both kinds, cluster-scoped, in the api-extensions category, in v1, v1beta1 and v1alpha1', async (t) => {
  for (const version of MAP_VERSIONS) {
    const res = await server.request('GET', `/apis/admissionregistration.k8s.io/${version}`);
    t.is(res.status, 200, version);
    const byName = new Map(res.body.resources.map((r: { name: string }) => [r.name, r]));
    t.like(byName.get('mutatingadmissionpolicies'), { namespaced: false, kind: 'MutatingAdmissionPolicy', singularName: 'mutatingadmissionpolicy', categories: ['api-extensions'] });
    t.like(byName.get('mutatingadmissionpolicybindings'), { namespaced: false, kind: 'MutatingAdmissionPolicyBinding', categories: ['api-extensions'] });
    t.false(byName.has('mutatingadmissionpolicies/status'));
  }
  const group = await server.request('GET', '/apis/admissionregistration.k8s.io');
  t.deepEqual(
    group.body.versions.map((v: { version: string }) => v.version),
    ['v1', 'v1beta1', 'v1alpha1'],
  );
  t.is(group.body.preferredVersion.version, 'v1');
});

for (const version of MAP_VERSIONS) {
  test(`${version}: create, get, list, update and delete both kinds; defaults are visible`, async (t) => {
    const name = `crud-${version}-${suffix()}`;
    const created = await server.request('POST', mapPath(version), { body: mutatingPolicy(name, {}, version) });
    t.is(created.status, 201, created.text);
    t.is(created.body.apiVersion, `admissionregistration.k8s.io/${version}`);
    t.deepEqual(created.body.spec, {
      failurePolicy: 'Fail',
      reinvocationPolicy: 'Never',
      matchConstraints: {
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'], scope: '*' }],
      },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}' } }],
    });
    t.is(created.body.status, undefined);
    t.is(created.body.metadata.generation, 1);

    const other = version === 'v1' ? 'v1beta1' : 'v1';
    const got = await server.request('GET', `${mapPath(other)}/${name}`);
    t.is(got.status, 200);
    t.is(got.body.apiVersion, `admissionregistration.k8s.io/${other}`);
    t.deepEqual(got.body.spec, created.body.spec);

    const list = await server.request('GET', mapPath(version));
    t.is(list.body.kind, 'MutatingAdmissionPolicyList');
    t.true(list.body.items.some((p: { metadata: { name: string } }) => p.metadata.name === name));

    const updated = await server.request('PUT', `${mapPath(version)}/${name}`, {
      body: { ...got.body, apiVersion: `admissionregistration.k8s.io/${version}`, spec: { ...got.body.spec, reinvocationPolicy: 'IfNeeded', failurePolicy: 'Ignore' } },
    });
    t.is(updated.status, 200, updated.text);
    t.like(updated.body.spec, { reinvocationPolicy: 'IfNeeded', failurePolicy: 'Ignore' });
    t.is(updated.body.metadata.generation, 2);

    const bname = `crud-${version}-${suffix()}`;
    const b = await server.request('POST', mapbPath(version), {
      body: mutatingBinding(bname, name, { paramRef: { name: 'cfg', namespace: 'default', parameterNotFoundAction: 'Deny' }, matchResources: { namespaceSelector: { matchLabels: { a: 'b' } } } }, version),
    });
    t.is(b.status, 201, b.text);
    t.deepEqual(b.body.spec, {
      policyName: name,
      paramRef: { name: 'cfg', namespace: 'default', parameterNotFoundAction: 'Deny' },
      matchResources: { matchPolicy: 'Equivalent', namespaceSelector: { matchLabels: { a: 'b' } }, objectSelector: {} },
    });
    const bu = await server.request('PATCH', `${mapbPath(version)}/${bname}`, { body: { spec: { policyName: 'other' } }, contentType: 'application/merge-patch+json' });
    t.is(bu.status, 200, bu.text);
    t.is(bu.body.spec.policyName, 'other');
    const blist = await server.request('GET', mapbPath(version));
    t.is(blist.body.kind, 'MutatingAdmissionPolicyBindingList');

    for (const path of [`${mapbPath(version)}/${bname}`, `${mapPath(version)}/${name}`]) {
      const del = await server.request('DELETE', path);
      t.is(del.status, 200, del.text);
      t.is((await server.request('GET', path)).status, 404);
    }
  });
}

test('required fields and unsupported values of a policy, with kube texts', async (t) => {
  const res = await server.request('POST', mapPath('v1'), {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: `req-${suffix()}` },
      spec: {
        failurePolicy: 'Sometimes',
        reinvocationPolicy: 'Always',
        paramKind: { apiVersion: 'a/b/c', kind: '' },
        matchConstraints: { resourceRules: [] },
        matchConditions: [{ name: 'x', expression: 'true' }, { name: 'x', expression: 'object.spec >' }],
        variables: [{ name: 'in', expression: '1' }],
      },
    },
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(res), [
    'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
    'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'spec.paramKind.kind: Required value',
    'spec.matchConstraints.resourceRules: Required value',
    'spec.matchConditions[1].expression: Invalid value: "object.spec >": compilation failed: ERROR: <input>:1:14: Syntax error: mismatched input \'<EOF>\' expecting {\'[\', \'{\', \'(\', \'.\', \'-\', \'!\', \'true\', \'false\', \'null\', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.spec >\n | .............^',
    'spec.matchConditions[1].name: Duplicate value: "x"',
    'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier',
    'spec.mutations: Required value: mutations must contain at least one item',
    'spec.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
  ]);
  t.true(res.body.message.startsWith(`MutatingAdmissionPolicy.admissionregistration.k8s.io "${res.body.details.name}" is invalid: [spec.failurePolicy: Unsupported value: "Sometimes"`));
  const bare = await server.request('POST', mapPath('v1'), { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: `bare-${suffix()}` }, spec: {} } });
  expectStatus(t, bare, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(bare), [
    'spec.matchConstraints: Required value',
    'spec.mutations: Required value: mutations must contain at least one item',
    'spec.reinvocationPolicy: Required value',
  ]);
});

test('a mutating policy or binding matches no DELETE', async (t) => {
  const rules = [
    { apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['widgets'] },
    { apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['*'], resources: ['gadgets'] },
  ];
  const res = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`del-${suffix()}`, { matchConstraints: { resourceRules: rules } }) });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(res), ['spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"']);
  const b = await server.request('POST', mapbPath('v1'), { body: mutatingBinding(`del-${suffix()}`, 'p', { matchResources: { resourceRules: [{ ...rules[0], operations: ['DELETE'] }] } }) });
  expectStatus(t, b, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(b), ['spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"']);
});

test('mutations: patch types, their bodies and expressions; expressions that do not parse are refused', async (t) => {
  const res = await server.request('POST', mapPath('v1'), {
    body: mutatingPolicy(`mut-${suffix()}`, {
      mutations: [
        { patchType: 'StrategicMerge' },
        { patchType: 'ApplyConfiguration' },
        { patchType: 'JSONPatch', jsonPatch: { expression: '  ' } },
        { patchType: 'JSONPatch', jsonPatch: { expression: ' [JSONPatch{op: "add", path: "/spec/x", value: 1}' } },
        { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{spec: Object.spec{replicas: 1}}' } },
        { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("a/b"), value: "c"}]' } },
        { applyConfiguration: { expression: 'Object{}' } },
        { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' }, jsonPatch: { expression: '[]' } },
        { patchType: 'constructor', applyConfiguration: { expression: 'Object{}' } },
      ],
    }),
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  const causes = causesOf(res);
  t.deepEqual(causes.slice(0, 3), [
    'spec.mutations[0].patchType: Unsupported value: "StrategicMerge": supported values: "ApplyConfiguration", "JSONPatch"',
    'spec.mutations[1].applyConfiguration: Required value: must be specified when patchType is ApplyConfiguration',
    'spec.mutations[2].jsonPatch.expression: Required value',
  ]);
  t.regex(causes[3], /^spec\.mutations\[3\]\.jsonPatch\.expression: Invalid value: "\[JSONPatch\{op: \\"add\\", path: \\"\/spec\/x\\", value: 1\}": compilation failed: ERROR: <input>:1:49: Syntax error: /);
  t.deepEqual(causes.slice(4), [
    'spec.mutations[6].patchType: Required value',
    'spec.mutations[7].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration',
    'spec.mutations[8].patchType: Unsupported value: "constructor": supported values: "ApplyConfiguration", "JSONPatch"',
  ]);
});

test("mutation expressions compile as they run, to what their patch type applies: kube's 422 texts", async (t) => {
  const apply = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
  const jsonPatch = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });
  const res = await server.request('POST', mapPath('v1'), {
    body: mutatingPolicy(`compile-${suffix()}`, {
      variables: [{ name: 'owner', expression: '"team-a"' }],
      mutations: [
        apply('"abc"'),
        apply(' [1] '),
        jsonPatch('Object{}'),
        jsonPatch('[]'),
        apply('Object{spec: params.spec}'),
        jsonPatch('[JSONPatch{op: "add", path: "/metadata/labels/owner", value: variables.onwer}]'),
        apply('Object{metadata: Object.metadata{labels: {"owner": variables.owner}}}'),
        jsonPatch('authorizer.group("").resource("pods").check("get").allowed() ? [JSONPatch{op: "remove", path: "/spec"}] : []'),
      ],
    }),
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(res), [
    'spec.mutations[0].applyConfiguration.expression: Invalid value: "\\"abc\\"": must evaluate to Object but got string',
    'spec.mutations[1].applyConfiguration.expression: Invalid value: "[1]": must evaluate to Object but got list(int)',
    'spec.mutations[2].jsonPatch.expression: Invalid value: "Object{}": must evaluate to list(JSONPatch) but got Object',
    'spec.mutations[3].jsonPatch.expression: Invalid value: "[]": must evaluate to list(JSONPatch) but got list(dyn)',
    "spec.mutations[4].applyConfiguration.expression: Invalid value: \"Object{spec: params.spec}\": compilation failed: ERROR: <input>:1:14: undeclared reference to 'params' (in container '')\n | Object{spec: params.spec}\n | .............^",
    "spec.mutations[5].jsonPatch.expression: Invalid value: \"[JSONPatch{op: \\\"add\\\", path: \\\"/metadata/labels/owner\\\", value: variables.onwer}]\": compilation failed: ERROR: <input>:1:71: undefined field 'onwer'\n | [JSONPatch{op: \"add\", path: \"/metadata/labels/owner\", value: variables.onwer}]\n | ......................................................................^",
  ]);
  // without variables, `variables` is still declared (kube compiles mutating policies in a composition environment)
  const noVariables = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`compile-${suffix()}`, { mutations: [apply('Object{metadata: variables.meta}')] }) });
  expectStatus(t, noVariables, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(noVariables), [
    "spec.mutations[0].applyConfiguration.expression: Invalid value: \"Object{metadata: variables.meta}\": compilation failed: ERROR: <input>:1:27: undefined field 'meta'\n | Object{metadata: variables.meta}\n | ..........................^",
  ]);
  // with params, the same expression compiles
  const withParams = await server.request('POST', mapPath('v1'), {
    body: mutatingPolicy(`compile-${suffix()}`, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [apply('Object{spec: params.spec}')] }),
  });
  t.is(withParams.status, 201, withParams.text);
});

test('binding validation: policyName required, paramRef name xor selector, matchResources', async (t) => {
  const check = async (spec: Record<string, unknown>, expected: string[]) => {
    const res = await server.request('POST', mapbPath('v1beta1'), {
      body: { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: `b-${suffix()}` }, spec },
    });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.deepEqual(causesOf(res), expected);
  };
  await check({}, ['spec.policyName: Required value']);
  await check({ policyName: 'Bad_Name', paramRef: { name: 'x', selector: {} } }, [
    "spec.policyName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Required value',
  ]);
  await check({ policyName: 'p', matchResources: { matchPolicy: 'Fuzzy', objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } } }, [
    'spec.matchResources.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
    "spec.matchResources.objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
  ]);
});

test('names ending with .static.k8s.io are reserved for static manifests, for both kinds', async (t) => {
  const reserved = 'names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API';
  for (const [path, kind, spec] of [
    [mapbPath('v1'), 'MutatingAdmissionPolicyBinding', { policyName: 'p' }],
    [mapPath('v1'), 'MutatingAdmissionPolicy', undefined],
  ] as const) {
    const name = `m-${suffix()}.static.k8s.io`;
    const body = kind === 'MutatingAdmissionPolicy' ? mutatingPolicy(name) : { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, spec };
    const res = await server.request('POST', path, { body });
    expectStatus(t, res, { code: 422, reason: 'Invalid' });
    t.true(causesOf(res).includes(`metadata.name: Invalid value: "${name}": ${reserved}`), causesOf(res).join('\n'));
  }
});

test('tables: MUTATIONS and PARAMKIND; POLICYNAME and PARAMREF', async (t) => {
  const id = suffix();
  const mutations = [
    { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } },
    { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]' } },
  ];
  t.is((await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`table-${id}`, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations }) })).status, 201);
  t.is((await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`table-nop-${id}`) })).status, 201);
  t.is((await server.request('POST', mapbPath('v1'), { body: mutatingBinding(`table-${id}`, `table-${id}`, { paramRef: { name: 'cfg', parameterNotFoundAction: 'Allow' } }) })).status, 201);
  t.is((await server.request('POST', mapbPath('v1'), { body: mutatingBinding(`table-nop-${id}`, `table-nop-${id}`) })).status, 201);
  const accept = { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } };
  const pt = await server.request('GET', `${mapPath('v1alpha1')}/table-${id}`, accept);
  t.is(pt.status, 200, pt.text);
  t.deepEqual(
    pt.body.columnDefinitions.map((c: { name: string; type: string; description: string }) => `${c.name}:${c.type}:${c.description}`).slice(1, 3),
    ['Mutations:integer:Mutation indicates the number of mutations rules defined in this configuration', 'ParamKind:string:ParamKind specifies the kind of resources used to parameterize this policy'],
  );
  t.deepEqual(pt.body.rows[0].cells.slice(0, 3), [`table-${id}`, 2, 'v1/ConfigMap']);
  t.deepEqual((await server.request('GET', `${mapPath('v1')}/table-nop-${id}`, accept)).body.rows[0].cells.slice(0, 3), [`table-nop-${id}`, 1, '<unset>']);
  const bt = await server.request('GET', `${mapbPath('v1')}/table-${id}`, accept);
  t.deepEqual(
    bt.body.columnDefinitions.map((c: { name: string }) => c.name),
    ['Name', 'PolicyName', 'ParamRef', 'Age'],
  );
  t.deepEqual(bt.body.rows[0].cells.slice(0, 3), [`table-${id}`, `table-${id}`, '*/cfg']);
  t.deepEqual((await server.request('GET', `${mapbPath('v1')}/table-nop-${id}`, accept)).body.rows[0].cells.slice(0, 3), [`table-nop-${id}`, `table-nop-${id}`, '<unset>']);
});

test('values of the wrong type are refused as kube decodes them (400), never a crash', async (t) => {
  const bad = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`types-${suffix()}`, { mutations: 'add a label' }) });
  expectStatus(t, bad, {
    code: 400,
    reason: 'BadRequest',
    message:
      'MutatingAdmissionPolicy in version "v1" cannot be handled as a MutatingAdmissionPolicy: json: cannot unmarshal string into Go struct field MutatingAdmissionPolicySpec.spec.mutations of type []v1.Mutation',
  });
  const nested = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`types-${suffix()}`, { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: 7 } }] }) });
  expectStatus(t, nested, { code: 400, reason: 'BadRequest' });
  t.regex(nested.body.message, /cannot unmarshal number into Go struct field JSONPatch\.spec\.mutations\.jsonPatch\.expression of type string$/);
  const cases: [Record<string, unknown>, string][] = [
    [{ mutations: [{ patchType: 5 }] }, 'cannot unmarshal number into Go struct field Mutation.spec.mutations.patchType of type v1.PatchType'],
    [{ mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: 'Object{}' }] }, 'cannot unmarshal string into Go struct field Mutation.spec.mutations.applyConfiguration of type v1.ApplyConfiguration'],
    [{ reinvocationPolicy: true }, 'cannot unmarshal bool into Go struct field MutatingAdmissionPolicySpec.spec.reinvocationPolicy of type v1.ReinvocationPolicyType'],
    [{ paramKind: 'v1/ConfigMap' }, 'cannot unmarshal string into Go struct field MutatingAdmissionPolicySpec.spec.paramKind of type v1.ParamKind'],
  ];
  for (const [spec, error] of cases) {
    const res = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`types-${suffix()}`, spec) });
    expectStatus(t, res, { code: 400, reason: 'BadRequest' });
    t.is(res.body.message, `MutatingAdmissionPolicy in version "v1" cannot be handled as a MutatingAdmissionPolicy: json: ${error}`);
  }
  // a null mutation decodes as Go's zero Mutation: no patch type
  const zero = await server.request('POST', mapPath('v1'), { body: mutatingPolicy(`types-${suffix()}`, { mutations: [null] }) });
  expectStatus(t, zero, { code: 422, reason: 'Invalid' });
  t.deepEqual(causesOf(zero), ['spec.mutations[0].patchType: Required value']);
});
