// kubectl applying MutatingAdmissionPolicies whose mutations do not fit: one that does not evaluate to what its patch
// type applies is refused with kube's message; one that misspells a field of the kind it matches is created, and
// kubectl prints the type-checking warning.
import test from 'ava';
import { describe, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

const policy = (name: string, expression: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: ${name}
spec:
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
      expression: '${expression}'
`;

test.serial("an apply configuration that is not an Object is refused with kube's message", async (t) => {
  const res = await kapi.kubectl(['apply', '-f', '-'], { stdin: policy('not-an-object', '[1]') });
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'The MutatingAdmissionPolicy "not-an-object" is invalid: spec.mutations[0].applyConfiguration.expression: Invalid value: "[1]": must evaluate to Object but got list(int)\n');
});

test.serial("a misspelt field of the matched kind's schema: created, and kubectl prints the warning", async (t) => {
  const res = await kapi.kubectl(['apply', '-f', '-'], { stdin: policy('misspelt', 'Object{spec: Object.spec{colour: "red"}}') });
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, 'mutatingadmissionpolicy.admissionregistration.k8s.io/misspelt created\n');
  t.is(res.stderr, "Warning: spec.mutations[0].applyConfiguration.expression: example.com/v1, Kind=Widget: ERROR: <input>:1:32: undefined field 'colour'\n");
});
