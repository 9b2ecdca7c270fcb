// kubectl with ValidatingAdmissionPolicies: apply a policy and its bindings from YAML, see a violating widget refused
// with kube's denial text, a Warn binding print `Warning:`, and the policies' and bindings' columns.
import test from 'ava';
import { describe, eventually, table, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

const policyYaml = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["widgets"]
  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "'replicas must be at most 5, got ' + string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-demo
spec:
  policyName: replica-limit
  validationActions: [Deny]
  matchResources:
    objectSelector:
      matchExpressions:
      - {key: exempt, operator: DoesNotExist}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: color-advice
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["widgets"]
  validations:
  - expression: "object.spec.color != 'red'"
    message: red widgets are discouraged
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: color-advice
spec:
  policyName: color-advice
  validationActions: [Warn]
`;

const widget = (name: string, color: string, replicas: number) => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
spec:
  color: ${color}
  replicas: ${replicas}
`;

test.serial('kubectl apply creates policies and bindings; get prints kube columns', async (t) => {
  const apply = await kapi.kubectl(['apply', '-f', '-'], { stdin: policyYaml });
  t.is(apply.code, 0, describe(apply));
  t.is(
    apply.stdout,
    'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit created\n' +
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit-demo created\n' +
      'validatingadmissionpolicy.admissionregistration.k8s.io/color-advice created\n' +
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/color-advice created\n',
  );
  const policies = await kapi.kubectl(['get', 'validatingadmissionpolicies']);
  const rows = table(policies.stdout);
  t.deepEqual(rows[0], ['NAME', 'VALIDATIONS', 'PARAMKIND', 'AGE'], describe(policies));
  t.deepEqual(rows.slice(1).map((r) => r.slice(0, 3)), [
    ['color-advice', '1', '<unset>'],
    ['replica-limit', '1', '<unset>'],
  ]);
  const bindings = await kapi.kubectl(['get', 'validatingadmissionpolicybindings']);
  const brows = table(bindings.stdout);
  t.deepEqual(brows[0], ['NAME', 'POLICYNAME', 'PARAMREF', 'AGE'], describe(bindings));
  t.deepEqual(brows.slice(1).map((r) => r.slice(0, 3)), [
    ['color-advice', 'color-advice', '<unset>'],
    ['replica-limit-demo', 'replica-limit', '<unset>'],
  ]);
});

test.serial('kubectl create of a violating widget prints the denial; a Warn binding prints Warning', async (t) => {
  await eventually(
    () => kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: widget(`probe-${Date.now()}`, 'blue', 9) }),
    (r) => r.code !== 0,
  );
  const denied = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: widget('big', 'blue', 9) });
  t.is(denied.code, 1, describe(denied));
  t.is(
    denied.stderr,
    'The widgets "big" is invalid: : ValidatingAdmissionPolicy \'replica-limit\' with binding \'replica-limit-demo\' denied request: replicas must be at most 5, got 9\n',
  );
  const warned = await eventually(
    () => kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: widget(`red-${Date.now()}`, 'red', 1) }),
    (r) => r.stderr.includes('Warning'),
  );
  t.is(warned.code, 0, describe(warned));
  t.is(warned.stderr, "Warning: Validation failed for ValidatingAdmissionPolicy 'color-advice' with binding 'color-advice': red widgets are discouraged\n");
  t.regex(warned.stdout, /^widget\.example\.com\/red-\d+ created\n$/);
});

test.serial('the type-checking status is visible with kubectl get -o yaml', async (t) => {
  const res = await eventually(
    () => kapi.kubectl(['get', 'validatingadmissionpolicy', 'replica-limit', '-o', 'jsonpath={.status}']),
    (r) => r.stdout.includes('observedGeneration'),
  );
  t.is(res.stdout, '{"observedGeneration":1,"typeChecking":{}}', describe(res));
});

test.serial('kubectl explain describes the policy schema from the published OpenAPI', async (t) => {
  const res = await kapi.kubectl(['explain', 'validatingadmissionpolicybinding.spec.paramRef']);
  t.is(res.code, 0, describe(res));
  t.regex(res.stdout, /^GROUP:\s+admissionregistration\.k8s\.io\nKIND:\s+ValidatingAdmissionPolicyBinding\nVERSION:\s+v1\n/);
  t.regex(res.stdout, /parameterNotFoundAction\s+<string>/);
  t.regex(res.stdout, /selector\s+<Object>/);
});
