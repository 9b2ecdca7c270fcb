import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadManifestDirectory } from '../../../../admission/manifests/manifest-loader.js';
import { readAdmissionConfiguration } from '../../../../admission/manifests/admission-configuration.js';
import { policyManifests } from '../../../../admission/policy/policy-manifests.js';
import { compilePolicy } from '../../../../admission/policy/compiled-policy.js';
import { PolicySource } from '../../../../admission/policy/policy-source.js';
import { policyExpressionChecker } from '../../../../admission/policy/policy-expression-checker.js';
import { webhookManifests } from '../../../../admission/webhook/webhook-manifests.js';
import { WebhookSource } from '../../../../admission/webhook/webhook-source.js';
import {
  validatingAdmissionPolicyBindingResource,
  validatingAdmissionPolicyResource,
} from '../../../../builtin/admissionregistration/validating-admission-policy-resource.js';
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
} from '../../../../builtin/admissionregistration/validating-admission-policy-validation.js';
import { validatingWebhookConfigurationResource } from '../../../../builtin/admissionregistration/webhook-configuration-resources.js';

const policies = () =>
  policyManifests(
    {
      plugin: 'ValidatingAdmissionPolicy',
      configurationKind: 'ValidatingAdmissionPolicyConfiguration',
      policy: { rt: validatingAdmissionPolicyResource(policyExpressionChecker), validate: (obj) => validateValidatingAdmissionPolicy(obj, undefined, policyExpressionChecker) },
      binding: { rt: validatingAdmissionPolicyBindingResource(), validate: (obj) => validateValidatingAdmissionPolicyBinding(obj) },
    },
    new PolicySource(compilePolicy),
  );
const webhooks = () => webhookManifests('ValidatingAdmissionWebhook', validatingWebhookConfigurationResource(() => undefined), () => undefined, new WebhookSource());

/** A directory holding `files`. */
function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-manifests-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const policy = (name: string, extra = '') => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ${name}}
spec:
  matchConstraints: {resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]}
  validations: [{expression: "true"}]
${extra}`;

test('objects are defaulted as an API create defaults them; a v1 List and several documents are read', (t) => {
  const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b.static.k8s.io' }, spec: { policyName: 'p.static.k8s.io', validationActions: ['Deny'] } }] });
  const { objects, hash } = loadManifestDirectory(dirWith({ 'a.yaml': `${policy('p.static.k8s.io')}---\n${policy('q.static.k8s.io')}`, 'b.json': list, 'notes.txt': 'ignored' }), policies());
  t.deepEqual([...objects.get('ValidatingAdmissionPolicy')!.keys()], ['p.static.k8s.io', 'q.static.k8s.io']);
  t.like(objects.get('ValidatingAdmissionPolicy')!.get('p.static.k8s.io'), { spec: { failurePolicy: 'Fail', matchConstraints: { matchPolicy: 'Equivalent' } } });
  t.deepEqual([...objects.get('ValidatingAdmissionPolicyBinding')!.keys()], ['b.static.k8s.io']);
  t.regex(hash, /^[0-9a-f]{64}$/);
});

test('files are decoded strictly and held to kube manifest rules', (t) => {
  const refused = (files: Record<string, string>, plugin = policies()) => t.throws(() => loadManifestDirectory(dirWith(files), plugin))?.message ?? '';
  t.regex(refused({ 'a.yaml': policy('p.static.k8s.io', 'bogus: 1\n') }), /error loading .*a\.yaml: ValidatingAdmissionPolicy "p\.static\.k8s\.io": strict decoding error: unknown field "bogus"/);
  t.regex(refused({ 'a.yaml': `${policy('p.static.k8s.io')}metadata: {name: x}\n` }), /error loading .*a\.yaml: .*[Mm]ap keys must be unique/);
  t.regex(refused({ 'a.yaml': policy('p.static.k8s.io', '  paramKind: {apiVersion: v1, kind: ConfigMap}\n') }), /ValidatingAdmissionPolicy "p\.static\.k8s\.io": spec\.paramKind is not supported for static manifests/);
  t.regex(refused({ 'a.yaml': policy('p.static.k8s.io'), 'b.yaml': policy('p.static.k8s.io') }), /duplicate name "p\.static\.k8s\.io" found in file ".*b\.yaml" \(previously seen in ".*a\.yaml"\)/);
  t.regex(refused({ 'a.yaml': 'apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingAdmissionPolicy\n' }), /unsupported resource type admissionregistration\.k8s\.io\/v1beta1, Kind=ValidatingAdmissionPolicy/);
  t.regex(refused({ 'a.yaml': 'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b.static.k8s.io}\nspec: {policyName: other, validationActions: [Deny]}\n' }), /binding "b\.static\.k8s\.io": spec\.policyName "other" must end with "\.static\.k8s\.io"/);
  const hook = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: w.static.k8s.io}
webhooks: [{name: w.example.com, clientConfig: {service: {namespace: ns, name: svc}}, sideEffects: None, admissionReviewVersions: [v1]}]
`;
  t.regex(refused({ 'w.yaml': hook }, webhooks()), /webhook "w\.example\.com" in "w\.static\.k8s\.io": clientConfig\.service is not supported for static manifests; use clientConfig\.url instead/);
});

test('the admission configuration names plugins kapi configures, with absolute existing directories', (t) => {
  const dir = dirWith({});
  const config = (plugins: unknown) => {
    const file = join(dirWith({}), 'admission.yaml');
    writeFileSync(file, JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins }));
    return file;
  };
  const vap = (configuration: Record<string, unknown>) => [{ name: 'ValidatingAdmissionPolicy', configuration: { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ValidatingAdmissionPolicyConfiguration', ...configuration } }];
  t.deepEqual(readAdmissionConfiguration(config(vap({ staticManifestsDir: dir })), [policies()]).get('ValidatingAdmissionPolicy'), { staticManifestsDir: dir });
  const refused = (plugins: unknown) => t.throws(() => readAdmissionConfiguration(config(plugins), [policies()]))?.message ?? '';
  t.regex(refused(vap({ staticManifestsDir: 'relative/dir' })), /admission plugin ValidatingAdmissionPolicy: staticManifestsDir: Invalid value: "relative\/dir": must be an absolute file path$/);
  t.regex(refused(vap({ staticManifestsDir: join(dir, 'missing') })), /staticManifestsDir: Invalid value: ".*missing": unable to read: /);
  t.regex(refused(vap({ staticManifestsDir: dir, extra: true })), /strict decoding error: unknown field "extra"$/);
  t.regex(refused([{ name: 'PodSecurity', configuration: {} }]), /admission plugin "PodSecurity" takes no configuration in kapi \(configurable plugins: ValidatingAdmissionPolicy\)$/);
});
