// kubectl against MutatingAdmissionPolicies in force on a CRD's objects (issue #20's e2e list): a label added with an
// apply configuration and a tag appended with a JSON patch, seen in `kubectl get -o yaml`; params from a ConfigMap-like
// custom resource by name and by selector, parameterNotFoundAction Deny and Allow; server-side dry runs; failurePolicy
// Fail and Ignore on a runtime error; a mutation refused by the schema; reinvocation with a mutating webhook.
// Each test works in its own namespace, which its policies select.
import test from 'ava';
import { describe, eventually, useKapi, type KubectlResult } from '../helpers/kapi-process.js';
import { patch, useWebhookServer } from '../helpers/webhook-server.js';

const kapi = useKapi({ args: ['--storage', 'memory'] });
const hooks = useWebhookServer();

const crds = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string}
              replicas: {type: integer, minimum: 0}
              tags: {type: array, items: {type: string}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: settings.params.example.com
spec:
  group: params.example.com
  scope: Namespaced
  names: {plural: settings, singular: setting, kind: Setting}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          data:
            type: object
            additionalProperties: {type: string}
`;

test.serial.before(async () => {
  const steps: [string[], string?][] = [
    [['apply', '-f', '-'], crds],
    [['wait', '--for', 'condition=established', '--timeout=20s', 'crd/gizmos.example.com', 'crd/settings.params.example.com']],
  ];
  for (const [args, stdin] of steps) {
    const res = await kapi.kubectl(args, { stdin });
    if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  }
});

/** `kubectl apply -f -` of YAML documents; throws with kubectl's output when it fails. */
async function apply(yaml: string): Promise<KubectlResult> {
  const res = await kapi.kubectl(['apply', '-f', '-'], { stdin: yaml });
  if (res.code !== 0) throw new Error(`kubectl apply: ${describe(res)}`);
  return res;
}

const namespace = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;

/** A small red Gizmo manifest with `labels`. */
function gizmo(name: string, labels: Record<string, string> = {}): string {
  const labelLines = Object.entries(labels).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`).join('');
  return `apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: ${name}\n${labelLines ? `  labels:\n${labelLines}` : ''}spec:\n  size: small\n  replicas: 1\n  tags: [red]\n`;
}

/**
 * A policy on gizmo creates in namespace `ns` (more matchConstraints and spec fields as YAML lines, indented under
 * `spec:`), and its binding of the same name.
 */
function policy(name: string, ns: string, body: string, constraints = ''): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: ${name}
spec:
  matchConstraints:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: ${ns}}
${constraints}    resourceRules:
    - apiGroups: [example.com]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [gizmos]
${body}---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: ${name}
spec:
  policyName: ${name}
`;
}

/**
 * Dry-run creates of a probe gizmo in `ns` (with `labels`) until kubectl's answer shows the policies `inForce` (they
 * reach admission through an informer); throws with the last answer when it never does.
 */
async function probe(ns: string, labels: Record<string, string>, inForce: (res: KubectlResult) => boolean): Promise<void> {
  let n = 0;
  const last = await eventually(
    () => kapi.kubectl(['-n', ns, 'create', '--dry-run=server', '-o', 'json', '-f', '-'], { stdin: gizmo(`probe-${++n}`, labels) }),
    inForce,
    20_000,
  );
  if (!inForce(last)) throw new Error(`the policies in ${ns} are not in force: ${describe(last)}`);
}

/** The labels of the object kubectl printed as JSON (none when it failed). */
function labelsOf(res: KubectlResult): Record<string, string> | undefined {
  return res.code === 0 ? JSON.parse(res.stdout).metadata.labels : undefined;
}

const mutationsNs = 'map-mutations';
const mutationPolicies =
  policy(
    'add-team-label',
    mutationsNs,
    `  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"team": "blue"}}}'
`,
  ) +
  '---\n' +
  policy(
    'append-audited-tag',
    mutationsNs,
    `  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/spec/tags/-", value: "audited"}]'
`,
  );

test.serial('policies applied with kubectl add a label (ApplyConfiguration) and append a tag (JSONPatch), seen in get -o yaml', async (t) => {
  await apply(namespace(mutationsNs));
  const applied = await apply(mutationPolicies);
  t.is(
    applied.stdout,
    'mutatingadmissionpolicy.admissionregistration.k8s.io/add-team-label created\n' +
      'mutatingadmissionpolicybinding.admissionregistration.k8s.io/add-team-label created\n' +
      'mutatingadmissionpolicy.admissionregistration.k8s.io/append-audited-tag created\n' +
      'mutatingadmissionpolicybinding.admissionregistration.k8s.io/append-audited-tag created\n',
  );
  await probe(mutationsNs, {}, (r) => labelsOf(r)?.team === 'blue' && JSON.parse(r.stdout).spec.tags.length === 2);

  const created = await kapi.kubectl(['-n', mutationsNs, 'apply', '-f', '-'], { stdin: gizmo('tagged', { app: 'demo' }) });
  t.is(created.stdout, 'gizmo.example.com/tagged created\n', describe(created));
  const get = await kapi.kubectl(['-n', mutationsNs, 'get', 'gizmo', 'tagged', '-o', 'yaml']);
  t.is(get.code, 0, describe(get));
  t.regex(get.stdout, /\n {2}labels:\n {4}app: demo\n {4}team: blue\n/, get.stdout);
  t.regex(get.stdout, /\n {2}tags:\n {2}- red\n {2}- audited\n/, get.stdout);
});

test.serial('kubectl create and apply with --dry-run=server -o yaml show the mutations; nothing is stored', async (t) => {
  for (const verb of ['create', 'apply']) {
    const dry = await kapi.kubectl(['-n', mutationsNs, verb, '--dry-run=server', '-o', 'yaml', '-f', '-'], { stdin: gizmo(`dry-${verb}`) });
    t.is(dry.code, 0, describe(dry));
    t.regex(dry.stdout, /\n {2}labels:\n {4}team: blue\n/, dry.stdout);
    t.regex(dry.stdout, /\n {2}tags:\n {2}- red\n {2}- audited\n/, dry.stdout);
    const get = await kapi.kubectl(['-n', mutationsNs, 'get', 'gizmo', `dry-${verb}`]);
    t.is(get.code, 1, describe(get));
    t.is(get.stderr, `Error from server (NotFound): gizmos.example.com "dry-${verb}" not found\n`);
  }
});

const paramsNs = 'map-params';
const setting = (name: string, tier: string, owner: string) => `apiVersion: params.example.com/v1
kind: Setting
metadata:
  name: ${name}
  namespace: ${paramsNs}
  labels: {tier: ${tier}}
data:
  owner: ${owner}
`;

/** A binding of owner-from-settings for the gizmos labelled `params: <name>`. */
const paramsBinding = (name: string, paramRef: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: ${name}
spec:
  policyName: owner-from-settings
  matchResources:
    objectSelector:
      matchLabels: {params: ${name}}
  paramRef:
${paramRef}`;

test.serial('params come from a custom resource by name and by selector; parameterNotFoundAction Deny refuses, Allow admits', async (t) => {
  await apply(namespace(paramsNs));
  await apply([setting('primary', 'gold', 'alice'), setting('backup', 'gold', 'bob'), setting('archive', 'silver', 'carol')].join('---\n'));
  const owner = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: owner-from-settings
spec:
  paramKind: {apiVersion: params.example.com/v1, kind: Setting}
  matchConstraints:
    resourceRules:
    - apiGroups: [example.com]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [gizmos]
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"owner-" + params.metadata.name: params.data.owner}}}'
`;
  await apply(
    [
      owner,
      paramsBinding('by-name', '    name: primary\n    parameterNotFoundAction: Deny\n'),
      paramsBinding('by-selector', '    selector: {matchLabels: {tier: gold}}\n    parameterNotFoundAction: Deny\n'),
      paramsBinding('missing-deny', '    name: absent\n    parameterNotFoundAction: Deny\n'),
      paramsBinding('missing-allow', '    name: absent\n    parameterNotFoundAction: Allow\n'),
    ].join('---\n'),
  );
  await probe(paramsNs, { params: 'missing-deny' }, (r) => r.code !== 0);
  await probe(paramsNs, { params: 'by-selector' }, (r) => labelsOf(r)?.['owner-backup'] === 'bob');

  const labels = async (name: string) => {
    const created = await kapi.kubectl(['-n', paramsNs, 'create', '-f', '-'], { stdin: gizmo(name, { params: name }) });
    t.is(created.stdout, `gizmo.example.com/${name} created\n`, describe(created));
    const get = await kapi.kubectl(['-n', paramsNs, 'get', 'gizmo', name, '-o', 'jsonpath={.metadata.labels}']);
    return JSON.parse(get.stdout);
  };
  t.deepEqual(await labels('by-name'), { params: 'by-name', 'owner-primary': 'alice' });
  t.deepEqual(await labels('by-selector'), { params: 'by-selector', 'owner-primary': 'alice', 'owner-backup': 'bob' });
  t.deepEqual(await labels('missing-allow'), { params: 'missing-allow' });

  const denied = await kapi.kubectl(['-n', paramsNs, 'create', '-f', '-'], { stdin: gizmo('missing-deny', { params: 'missing-deny' }) });
  t.is(denied.code, 1, describe(denied));
  t.is(
    denied.stderr,
    'Error from server (Forbidden): error when creating "STDIN": policy \'owner-from-settings\' with binding \'missing-deny\' denied request: ' +
      'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction\n',
  );
});

const failuresNs = 'map-failures';
const FAILING = 'Object{spec: Object.spec{size: object.spec.missing}}';
/** A policy for the gizmos labelled `failure: <failurePolicy>` whose first mutation fails at runtime; its second labels the object. */
const failingPolicy = (failurePolicy: string) =>
  policy(
    `fail-${failurePolicy.toLowerCase()}`,
    failuresNs,
    `  failurePolicy: ${failurePolicy}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: '${FAILING}'
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"next-mutation": "ran"}}}'
`,
    `    objectSelector:\n      matchLabels: {failure: ${failurePolicy}}\n`,
  );

test.serial('a runtime error follows failurePolicy: Fail prints kube\'s error, Ignore creates the object with the failed mutation skipped', async (t) => {
  await apply(namespace(failuresNs));
  await apply(failingPolicy('Fail') + '---\n' + failingPolicy('Ignore'));
  await probe(failuresNs, { failure: 'Fail' }, (r) => r.code !== 0);
  await probe(failuresNs, { failure: 'Ignore' }, (r) => labelsOf(r)?.['next-mutation'] === 'ran');

  const refused = await kapi.kubectl(['-n', failuresNs, 'create', '-f', '-'], { stdin: gizmo('closed', { failure: 'Fail' }) });
  t.is(refused.code, 1, describe(refused));
  t.is(
    refused.stderr,
    `The gizmos "closed" is invalid: : policy 'fail-fail' with binding 'fail-fail' denied request: expression '${FAILING}' resulted in error: no such key: missing\n`,
  );
  const notStored = await kapi.kubectl(['-n', failuresNs, 'get', 'gizmo', 'closed']);
  t.is(notStored.stderr, 'Error from server (NotFound): gizmos.example.com "closed" not found\n', describe(notStored));

  // kube moves on to the policy's next mutation after an ignored failure
  const admitted = await kapi.kubectl(['-n', failuresNs, 'create', '-f', '-'], { stdin: gizmo('open', { failure: 'Ignore' }) });
  t.is(admitted.stdout, 'gizmo.example.com/open created\n', describe(admitted));
  const get = await kapi.kubectl(['-n', failuresNs, 'get', 'gizmo', 'open', '-o', 'jsonpath={.spec} {.metadata.labels}']);
  t.is(get.stdout, '{"replicas":1,"size":"small","tags":["red"]} {"failure":"Ignore","next-mutation":"ran"}', describe(get));
});

test.serial('a mutation that breaks the schema is refused by validation: kubectl prints the 422', async (t) => {
  const ns = 'map-invalid';
  await apply(namespace(ns));
  await apply(
    policy(
      'negative-replicas',
      ns,
      `  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{spec: Object.spec{replicas: -1}}'
`,
    ),
  );
  await probe(ns, {}, (r) => r.code !== 0);
  const refused = await kapi.kubectl(['-n', ns, 'create', '-f', '-'], { stdin: gizmo('broken') });
  t.is(refused.code, 1, describe(refused));
  t.is(refused.stderr, 'The Gizmo "broken" is invalid: spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0\n');
  // the status line of kubectl's request log
  const verbose = await kapi.kubectl(['-n', ns, 'create', '-v=6', '-f', '-'], { stdin: gizmo('broken') });
  t.regex(verbose.stderr, / POST https:\/\/\S+\/apis\/example\.com\/v1\/namespaces\/map-invalid\/gizmos\?\S+ 422 Unprocessable Entity in /, describe(verbose));
});

test.serial('reinvocation with a mutating webhook: policy first, webhook second, then one more round of both', async (t) => {
  const ns = 'map-reinvocation';
  await apply(namespace(ns));
  // each counts its runs and records how many runs of the other it saw
  hooks.handle('/count', (review, path) => {
    const labels: Record<string, string> = review.request.object.metadata.labels ?? {};
    const runs = String(Number(labels['webhook-runs'] ?? '0') + 1);
    return patch([{ op: 'add', path: '/metadata/labels', value: { ...labels, 'webhook-runs': runs, 'webhook-saw': labels['policy-runs'] ?? '0' } }])(review, path);
  });
  await apply(
    policy(
      'count-policy-runs',
      ns,
      `  reinvocationPolicy: IfNeeded
  variables:
  - name: labels
    expression: 'has(object.metadata.labels) ? object.metadata.labels : {}'
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{metadata: Object.metadata{labels: {
          "policy-runs": "policy-runs" in variables.labels ? string(int(variables.labels["policy-runs"]) + 1) : "1",
          "policy-saw": "webhook-runs" in variables.labels ? string(variables.labels["webhook-runs"]) : "0"}}}
`,
    ) +
      `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: count-webhook-runs
webhooks:
- name: count.kapi.test
  clientConfig:
    url: ${hooks.url('/count')}
    caBundle: ${hooks.caBundle}
  rules:
  - operations: [CREATE]
    apiGroups: [example.com]
    apiVersions: [v1]
    resources: [gizmos]
  namespaceSelector:
    matchLabels: {kubernetes.io/metadata.name: ${ns}}
  reinvocationPolicy: IfNeeded
  sideEffects: None
  admissionReviewVersions: [v1]
`,
  );
  await probe(ns, {}, (r) => labelsOf(r)?.['policy-runs'] !== undefined && labelsOf(r)?.['webhook-runs'] !== undefined);

  const created = await kapi.kubectl(['-n', ns, 'create', '-f', '-'], { stdin: gizmo('counted') });
  t.is(created.stdout, 'gizmo.example.com/counted created\n', describe(created));
  const get = await kapi.kubectl(['-n', ns, 'get', 'gizmo', 'counted', '-o', 'yaml']);
  t.is(get.code, 0, describe(get));
  // round 1: the policy (no webhook run yet), the webhook (after one policy run); round 2: both again, in that order
  t.regex(get.stdout, /\n {2}labels:\n {4}policy-runs: "2"\n {4}policy-saw: "1"\n {4}webhook-runs: "2"\n {4}webhook-saw: "2"\n/, get.stdout);
  const calls = hooks.requestsTo('/count').filter((r) => r.body?.request?.name === 'counted');
  t.deepEqual(
    calls.map((r) => r.body.request.object.metadata.labels),
    [
      { 'policy-runs': '1', 'policy-saw': '0' },
      { 'policy-runs': '2', 'policy-saw': '1', 'webhook-runs': '1', 'webhook-saw': '1' },
    ],
  );
});
