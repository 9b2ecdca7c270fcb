// kapi serve --admission-control-config-file with static admission policies (KEP-5793): kubectl meets a validating
// policy and a mutating one from their files from the start, cannot see or delete them, and sees an edit of a file take
// effect without a restart.
import test from 'ava';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, eventually, removeDir, startKapi, tempDir, type KapiProcess } from '../helpers/kapi-process.js';

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

const mutatingPolicy = (team: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: team-label.static.k8s.io
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["namespaces"]
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"team": "${team}"}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: team-label-binding.static.k8s.io
spec:
  policyName: team-label.static.k8s.io
`;

/**
 * Serves with `plugin`'s static manifests directory holding `manifest` (policy.yaml), and runs `use` with the server
 * and a function replacing that file (atomically, as kube advises).
 */
async function withStaticPolicy(plugin: string, manifest: string, use: (kapi: KapiProcess, write: (text: string) => void) => Promise<void>): Promise<void> {
  const root = tempDir('kapi-e2e-admission-');
  const manifests = join(root, 'manifests');
  mkdirSync(manifests);
  const write = (text: string) => {
    writeFileSync(join(manifests, '.policy.tmp'), text);
    renameSync(join(manifests, '.policy.tmp'), join(manifests, 'policy.yaml'));
  };
  write(manifest);
  const config = join(root, 'admission.yaml');
  writeFileSync(
    config,
    `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ${plugin}
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: ${plugin}Configuration
    staticManifestsDir: ${manifests}
`,
  );
  const kapi = await startKapi({ args: ['--storage', 'memory', '--admission-control-config-file', config] });
  try {
    await use(kapi, write);
  } finally {
    await kapi.stop();
    removeDir(root);
  }
}

test('kubectl meets a policy loaded from a file: refused, invisible, undeletable, reloaded on edit', async (t) => {
  await withStaticPolicy('ValidatingAdmissionPolicy', policy('locked-'), async (kapi, write) => {
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
  });
});

test('kubectl meets a mutating policy loaded from a file: mutated on dry-run, invisible, undeletable, reloaded on edit', async (t) => {
  await withStaticPolicy('MutatingAdmissionPolicy', mutatingPolicy('platform'), async (kapi, write) => {
    const dry = await kapi.kubectl(['create', 'namespace', 'labelled', '--dry-run=server', '-o', 'yaml']);
    t.is(dry.code, 0, describe(dry));
    t.regex(dry.stdout, /\n {2}labels:\n {4}kubernetes\.io\/metadata\.name: labelled\n {4}team: platform\n/, dry.stdout);
    const stored = await kapi.kubectl(['get', 'namespace', 'labelled']);
    t.is(stored.stderr, 'Error from server (NotFound): namespaces "labelled" not found\n', 'a dry run stores nothing');

    for (const resource of ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']) {
      const listed = await kapi.kubectl(['get', resource]);
      t.is(listed.stderr, 'No resources found\n', describe(listed));
    }
    const deleted = await kapi.kubectl(['delete', 'mutatingadmissionpolicy', 'team-label.static.k8s.io']);
    t.is(deleted.code, 1);
    t.is(deleted.stderr, 'Error from server (NotFound): mutatingadmissionpolicies.admissionregistration.k8s.io "team-label.static.k8s.io" not found\n');

    write(mutatingPolicy('infra'));
    const edited = await eventually(
      () => kapi.kubectl(['create', 'namespace', 'relabelled', '--dry-run=server', '-o', 'jsonpath={.metadata.labels.team}']),
      (r) => r.stdout === 'infra',
    );
    t.is(edited.stdout, 'infra', describe(edited));
  });
});
