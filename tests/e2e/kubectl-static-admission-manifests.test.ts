// kapi serve --admission-control-config-file with a static ValidatingAdmissionPolicy (KEP-5793): kubectl is refused
// by it from the start, cannot see or delete it, and sees an edit of its file take effect without a restart.
import test from 'ava';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, eventually, removeDir, startKapi, tempDir } from '../helpers/kapi-process.js';

const policy = (prefix: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-prefix.static.k8s.io
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["namespaces"]
  validations:
  - expression: "!object.metadata.name.startsWith('${prefix}')"
    message: "namespace names may not start with ${prefix}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-prefix-binding.static.k8s.io
spec:
  policyName: no-prefix.static.k8s.io
  validationActions: [Deny]
`;

test('kubectl meets a policy loaded from a file: refused, invisible, undeletable, reloaded on edit', async (t) => {
  const root = tempDir('kapi-e2e-admission-');
  const manifests = join(root, 'manifests');
  mkdirSync(manifests);
  const write = (text: string) => {
    writeFileSync(join(manifests, '.policy.tmp'), text);
    renameSync(join(manifests, '.policy.tmp'), join(manifests, 'policy.yaml'));
  };
  write(policy('locked-'));
  const config = join(root, 'admission.yaml');
  writeFileSync(
    config,
    `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ValidatingAdmissionPolicy
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: ValidatingAdmissionPolicyConfiguration
    staticManifestsDir: ${manifests}
`,
  );
  const kapi = await startKapi({ args: ['--storage', 'memory', '--admission-control-config-file', config] });
  try {
    const denied = await kapi.kubectl(['create', 'namespace', 'locked-1']);
    t.is(denied.code, 1, describe(denied));
    t.is(
      denied.stderr,
      "The namespaces \"locked-1\" is invalid: : ValidatingAdmissionPolicy 'no-prefix.static.k8s.io' with binding 'no-prefix-binding.static.k8s.io' denied request: namespace names may not start with locked-\n",
    );

    const listed = await kapi.kubectl(['get', 'validatingadmissionpolicies']);
    t.is(listed.stderr, 'No resources found\n', describe(listed));
    const deleted = await kapi.kubectl(['delete', 'validatingadmissionpolicy', 'no-prefix.static.k8s.io']);
    t.is(deleted.code, 1);
    t.is(deleted.stderr, 'Error from server (NotFound): validatingadmissionpolicies.admissionregistration.k8s.io "no-prefix.static.k8s.io" not found\n');

    write(policy('sealed-'));
    let n = 0;
    const refused = await eventually(() => kapi.kubectl(['create', 'namespace', `sealed-${++n}`]), (r) => r.code !== 0);
    t.regex(refused.stderr, /namespace names may not start with sealed-/, describe(refused));
    const created = await kapi.kubectl(['create', 'namespace', 'locked-2']);
    t.is(created.stdout, 'namespace/locked-2 created\n', describe(created));
  } finally {
    await kapi.stop();
    removeDir(root);
  }
});
