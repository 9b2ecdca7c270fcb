// CRDs against the APIs kapi serves itself, as kubectl users see them: a CRD in a Kubernetes-owned group needs the
// approval annotation, and a CRD named customresourcedefinitions.apiextensions.k8s.io breaks neither `kubectl get crd`
// while it exists nor after it is deleted.
import test from 'ava';
import { stringify } from 'yaml';
import { describe, eventually, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

function crd(group: string, plural: string, kind: string, annotations?: Record<string, string>) {
  return stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, ...(annotations ? { annotations } : {}) },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
}

test.serial('kubectl create of a CRD in a k8s.io group without the approval annotation prints kube\'s refusal', async (t) => {
  const res = await kapi.kubectl(['create', '-f', '-'], { stdin: crd('x.k8s.io', 'things', 'Thing') });
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'The CustomResourceDefinition "things.x.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111\n',
    describe(res),
  );
});

test.serial('kubectl get crd keeps working with a CRD named customresourcedefinitions.apiextensions.k8s.io, and after its deletion', async (t) => {
  const shadow = crd('apiextensions.k8s.io', 'customresourcedefinitions', 'CustomResourceDefinition', { 'api-approved.kubernetes.io': 'unapproved, testing' });
  const created = await kapi.kubectl(['create', '-f', '-'], { stdin: shadow });
  t.is(created.code, 0, describe(created));
  const names = async () => {
    const res = await kapi.kubectl(['get', 'crd', '-o', 'name']);
    t.is(res.code, 0, describe(res));
    return res.stdout;
  };
  t.is(
    await names(),
    'customresourcedefinition.apiextensions.k8s.io/customresourcedefinitions.apiextensions.k8s.io\ncustomresourcedefinition.apiextensions.k8s.io/widgets.example.com\n',
  );
  const deleted = await kapi.kubectl(['delete', 'crd', 'customresourcedefinitions.apiextensions.k8s.io']);
  t.is(deleted.code, 0, describe(deleted));
  await eventually(names, (out) => !out.includes('customresourcedefinitions.apiextensions.k8s.io/'));
  t.is(await names(), 'customresourcedefinition.apiextensions.k8s.io/widgets.example.com\n');
  const widgets = await kapi.kubectl(['-n', 'demo', 'get', 'widgets']);
  t.is(widgets.code, 0, describe(widgets));
});
