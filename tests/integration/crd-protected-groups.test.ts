/**
 * CRDs and the APIs kapi serves itself: a CRD in a group owned by the Kubernetes project needs the
 * api-approved.kubernetes.io annotation (kube's 422s, and the KubernetesAPIApprovalPolicyConformant condition), and a
 * CRD naming a resource kapi serves never takes it over, nor takes it away when deleted.
 */
import test from 'ava';
import { expectStatus, suffix, useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const annotation = 'api-approved.kubernetes.io';
const missingReason = `protected groups must have approval annotation "${annotation}", see https://github.com/kubernetes/enhancements/pull/1111`;
const invalidReason = `protected groups must have approval annotation "${annotation}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`;

function crd(group: string, plural = 'things', annotations?: Record<string, string>) {
  const kind = plural[0].toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, ...(annotations ? { annotations } : {}) },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

async function conditionOf(name: string, type: string): Promise<Condition> {
  return server.waitFor(async () => {
    const res = await server.request('GET', `${crdsPath}/${name}`);
    return (res.body.status?.conditions as Condition[] | undefined)?.find((c) => c.type === type);
  }, 10_000, `${type} on ${name}`);
}

for (const group of ['k8s.io', 'x.k8s.io', 'kubernetes.io', 'a.b.kubernetes.io']) {
  test(`a CRD in ${group} without the approval annotation is refused (422) and not stored`, async (t) => {
    const res = await server.request('POST', crdsPath, { body: crd(group) });
    expectStatus(t, res, {
      code: 422,
      reason: 'Invalid',
      message: `CustomResourceDefinition.apiextensions.k8s.io "things.${group}" is invalid: metadata.annotations[${annotation}]: Required value: ${missingReason}`,
    });
    t.like(res.body.details.causes[0], { reason: 'FieldValueRequired', field: `metadata.annotations[${annotation}]` });
    expectStatus(t, await server.request('GET', `${crdsPath}/things.${group}`), { code: 404, reason: 'NotFound' });
  });
}

test('an approval annotation that is neither a URL nor "unapproved…" is an invalid value', async (t) => {
  const res = await server.request('POST', crdsPath, { body: crd('invalid.k8s.io', 'things', { [annotation]: 'yes please' }) });
  expectStatus(t, res, {
    code: 422,
    reason: 'Invalid',
    message: `CustomResourceDefinition.apiextensions.k8s.io "things.invalid.k8s.io" is invalid: metadata.annotations[${annotation}]: Invalid value: "yes please": ${invalidReason}`,
  });
});

test('an approved CRD is KubernetesAPIApprovalPolicyConformant; an unapproved one is accepted but not conformant', async (t) => {
  const url = 'https://github.com/kubernetes/kubernetes/pull/78458';
  const approved = await server.request('POST', crdsPath, { body: crd('approved.k8s.io', 'things', { [annotation]: url }) });
  t.is(approved.status, 201, approved.text);
  t.like(await conditionOf('things.approved.k8s.io', 'KubernetesAPIApprovalPolicyConformant'), {
    status: 'True',
    reason: 'ApprovedAnnotation',
    message: `approved in ${url}`,
  });
  const unapproved = await server.request('POST', crdsPath, { body: crd('unapproved.x-k8s.io.kubernetes.io', 'things', { [annotation]: 'unapproved, testing only' }) });
  t.is(unapproved.status, 201, unapproved.text);
  t.like(await conditionOf('things.unapproved.x-k8s.io.kubernetes.io', 'KubernetesAPIApprovalPolicyConformant'), {
    status: 'False',
    reason: 'UnapprovedAnnotation',
    message: 'not approved: "unapproved, testing only"',
  });
  // A CRD outside the protected groups carries no such condition.
  await conditionOf('widgets.example.com', 'Established');
  const widgets = await server.request('GET', `${crdsPath}/widgets.example.com`);
  t.false(widgets.body.status.conditions.some((c: Condition) => c.type === 'KubernetesAPIApprovalPolicyConformant'));
});

test('an update may keep the approval state as it is, but not drop the annotation', async (t) => {
  const name = 'things.kept.k8s.io';
  t.is((await server.request('POST', crdsPath, { body: crd('kept.k8s.io', 'things', { [annotation]: 'unapproved' }) })).status, 201);
  const relabel = await server.request('PATCH', `${crdsPath}/${name}`, { body: { metadata: { labels: { a: 'b' } } }, contentType: 'application/merge-patch+json' });
  t.is(relabel.status, 200, relabel.text);
  const dropped = await server.request('PATCH', `${crdsPath}/${name}`, {
    body: { metadata: { annotations: { [annotation]: null } } },
    contentType: 'application/merge-patch+json',
  });
  expectStatus(t, dropped, {
    code: 422,
    reason: 'Invalid',
    message: `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: metadata.annotations[${annotation}]: Required value: ${missingReason}`,
  });
});

/** Creates a CRD for a resource kapi serves itself and waits until the CRD controller has judged it. */
async function createShadow(group: string, plural: string): Promise<string> {
  const name = `${plural}.${group}`;
  const res = await server.request('POST', crdsPath, { body: crd(group, plural, { [annotation]: `unapproved, fuzz ${suffix()}` }) });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
  await conditionOf(name, 'Established');
  return name;
}

test.serial('a CRD named customresourcedefinitions.apiextensions.k8s.io leaves the CRD API as it is, while it exists and once deleted', async (t) => {
  const discoveryBefore = await server.request('GET', '/apis/apiextensions.k8s.io/v1');
  const name = await createShadow('apiextensions.k8s.io', 'customresourcedefinitions');
  const listCrds = async () => {
    const res = await server.request('GET', crdsPath);
    t.is(res.status, 200, res.text);
    t.is(res.body.kind, 'CustomResourceDefinitionList');
    return res.body.items.map((c: { metadata: { name: string } }) => c.metadata.name);
  };
  t.true((await listCrds()).includes('widgets.example.com'));
  t.deepEqual((await server.request('GET', '/apis/apiextensions.k8s.io/v1')).body, discoveryBefore.body);

  t.is((await server.request('DELETE', `${crdsPath}/${name}`)).status, 200);
  await server.waitFor(async () => (await server.request('GET', `${crdsPath}/${name}`)).status === 404 || undefined, 10_000, `${name} to be gone`);
  // The CRD API is still served, and deleting the shadowing CRD deleted no other CRD.
  t.true((await listCrds()).includes('widgets.example.com'));
  t.deepEqual((await server.request('GET', '/apis/apiextensions.k8s.io/v1')).body, discoveryBefore.body);
  const widgets = await server.request('GET', '/apis/example.com/v1/namespaces/default/widgets');
  t.is(widgets.status, 200, widgets.text);
});

test.serial('a CRD named after a built-in admissionregistration resource leaves it served', async (t) => {
  const name = await createShadow('admissionregistration.k8s.io', 'validatingadmissionpolicies');
  const path = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
  const during = await server.request('GET', path);
  t.is(during.status, 200, during.text);
  t.is(during.body.kind, 'ValidatingAdmissionPolicyList');
  t.is((await server.request('DELETE', `${crdsPath}/${name}`)).status, 200);
  await server.waitFor(async () => (await server.request('GET', `${crdsPath}/${name}`)).status === 404 || undefined, 10_000, `${name} to be gone`);
  const after = await server.request('GET', path);
  t.is(after.status, 200, after.text);
  t.is(after.body.kind, 'ValidatingAdmissionPolicyList');
});
