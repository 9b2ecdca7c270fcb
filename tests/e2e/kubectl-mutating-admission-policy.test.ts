// kubectl with MutatingAdmissionPolicies: apply a policy and its binding from YAML, see kube's columns, a defaulted
// policy, a refused one, the v1beta1 form, kubectl explain, and the mutation shown by a server-side dry run.
import test from 'ava';
import { describe, eventually, table, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

const policyYaml = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: add-owner
spec:
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
    - apiGroups: ["example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["widgets"]
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{metadata: Object.metadata{labels: {"owner": params.data.owner}}}
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        [JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/mutated"), value: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: add-owner-demo
spec:
  policyName: add-owner
  paramRef:
    name: owners
    namespace: default
    parameterNotFoundAction: Deny
`;

test.serial('kubectl apply creates a policy and its binding; get prints kube columns', async (t) => {
  const apply = await kapi.kubectl(['apply', '-f', '-'], { stdin: policyYaml });
  t.is(apply.code, 0, describe(apply));
  t.is(
    apply.stdout,
    'mutatingadmissionpolicy.admissionregistration.k8s.io/add-owner created\n' + 'mutatingadmissionpolicybinding.admissionregistration.k8s.io/add-owner-demo created\n',
  );
  const policies = await kapi.kubectl(['get', 'mutatingadmissionpolicies']);
  const rows = table(policies.stdout);
  t.deepEqual(rows[0], ['NAME', 'MUTATIONS', 'PARAMKIND', 'AGE'], describe(policies));
  t.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [['add-owner', '2', 'v1/ConfigMap']]);
  const bindings = await kapi.kubectl(['get', 'mutatingadmissionpolicybindings']);
  const brows = table(bindings.stdout);
  t.deepEqual(brows[0], ['NAME', 'POLICYNAME', 'PARAMREF', 'AGE'], describe(bindings));
  t.deepEqual(brows.slice(1).map((r) => r.slice(0, 3)), [['add-owner-demo', 'add-owner', 'default/owners']]);
  const defaults = await kapi.kubectl(['get', 'mutatingadmissionpolicy', 'add-owner', '-o', 'jsonpath={.spec.failurePolicy}']);
  t.is(defaults.stdout, 'Fail', describe(defaults));
});

test.serial('a policy without mutations is refused with kube\'s message; the v1beta1 form is served too', async (t) => {
  const bad = await kapi.kubectl(['apply', '-f', '-'], {
    stdin: policyYaml.split('---')[0].replace(/  mutations:[\s\S]*$/, '').replace('add-owner', 'no-mutations'),
  });
  t.is(bad.code, 1, describe(bad));
  t.is(
    bad.stderr,
    'The MutatingAdmissionPolicy "no-mutations" is invalid: spec.mutations: Required value: mutations must contain at least one item\n',
  );
  const beta = await kapi.kubectl(['get', 'mutatingadmissionpolicies.v1beta1.admissionregistration.k8s.io', 'add-owner', '-o', 'jsonpath={.apiVersion} {.spec.mutations[1].patchType}']);
  t.is(beta.stdout, 'admissionregistration.k8s.io/v1beta1 JSONPatch', describe(beta));
});

test.serial('kubectl explain describes the mutations from the published OpenAPI', async (t) => {
  const res = await kapi.kubectl(['explain', 'mutatingadmissionpolicy.spec.mutations']);
  t.is(res.code, 0, describe(res));
  t.regex(res.stdout, /^GROUP:\s+admissionregistration\.k8s\.io\nKIND:\s+MutatingAdmissionPolicy\nVERSION:\s+v1\n/);
  t.regex(res.stdout, /FIELD: mutations <\[\]Object>/);
  t.regex(res.stdout, /applyConfiguration\s+<Object>/);
  t.regex(res.stdout, /jsonPatch\s+<Object>/);
  t.regex(res.stdout, /patchType\s+<string> -required-/);
});

const labelPolicyYaml = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: add-team
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["widgets"]
  reinvocationPolicy: IfNeeded
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{metadata: Object.metadata{labels: {"team": "blue"}}}
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        [JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/mutated"), value: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: add-team
spec:
  policyName: add-team
`;

test.serial('kubectl create --dry-run=server -o yaml shows the mutations of an applied policy; nothing is stored', async (t) => {
  // add-owner takes its params from ConfigMap default/owners, which does not exist: it would refuse every widget
  const removed = await kapi.kubectl(['delete', 'mutatingadmissionpolicy', 'add-owner']);
  t.is(removed.code, 0, describe(removed));
  const apply = await kapi.kubectl(['apply', '-f', '-'], { stdin: labelPolicyYaml });
  t.is(apply.code, 0, describe(apply));
  const widget = `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: dry\n  annotations:\n    note: x\nspec:\n  color: red\n  replicas: 1\n`;
  const dry = await eventually(
    () => kapi.kubectl(['-n', 'demo', 'create', '--dry-run=server', '-o', 'yaml', '-f', '-'], { stdin: widget }),
    (r) => r.code === 0 && r.stdout.includes('team: blue'),
  );
  t.is(dry.code, 0, describe(dry));
  t.regex(dry.stdout, /\n {2}annotations:\n {4}example\.com\/mutated: "true"\n {4}note: x\n/, dry.stdout);
  t.regex(dry.stdout, /\n {2}labels:\n {4}team: blue\n/, dry.stdout);
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widgets']);
  t.is(get.stderr, 'No resources found in demo namespace.\n', describe(get));
});
