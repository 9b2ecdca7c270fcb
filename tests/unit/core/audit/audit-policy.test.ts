import test from 'ava';
import { AuditPolicyError, parseAuditPolicy } from '../../../../core/audit/audit-policy.js';

const refused = (t: import('ava').ExecutionContext, text: string, message: string) => {
  const err = t.throws(() => parseAuditPolicy(text), { instanceOf: AuditPolicyError });
  t.is(err?.message, message);
};

test('a v1 policy in YAML or JSON is taken as written', (t) => {
  const yaml = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n  users: [alice]\n';
  t.deepEqual(parseAuditPolicy(yaml), { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', omitStages: ['RequestReceived'], rules: [{ level: 'Metadata', users: ['alice'] }] });
  t.deepEqual(parseAuditPolicy('{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"None"}]}').rules, [{ level: 'None' }]);
});

test('only audit.k8s.io/v1 Policy decodes, as in kube since 1.24', (t) => {
  refused(t, 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]', 'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1"');
  refused(t, 'apiVersion: audit.k8s.io/v1\nrules: [{level: None}]', "failed decoding: Object 'Kind' is missing");
  refused(t, 'kind: Policy\nrules: [{level: None}]', "failed decoding: Object 'apiVersion' is missing");
  refused(t, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []', 'loaded illegal policy with 0 rules');
  refused(t, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, users: alice}]', 'failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.users of type []string');
});

test("invalid rules are refused with kube's field errors, several at once in brackets", (t) => {
  const one = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n';
  refused(t, one, 'rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"');
  const many = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [Later]
rules:
- level: Metadata
  nonResourceURLs: [healthz, /api*/x]
  resources: [{group: Bad_Group, resourceNames: [a]}]
- {}
`;
  refused(
    t,
    many,
    '[omitStages[0]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic, ' +
      `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, ` +
      `rules[0].nonResourceURLs[1]: Invalid value: "/api*/x": non-resource URL wildcards '*' must be the final character of the rule, ` +
      `rules[0].resources.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
      'rules[0].resources.resourceNames: Invalid value: ["a"]: using resourceNames requires at least one resource, ' +
      'rules[0].nonResourceURLs: Invalid value: ["healthz","/api*/x"]: rules cannot apply to both regular resources and non-resource URLs, ' +
      'rules[1].level: Required value]',
  );
});
