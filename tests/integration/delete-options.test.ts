/**
 * DeleteOptions checked as kube's ValidateDeleteOptions does: 422 Invalid on `DeleteOptions.meta.k8s.io ""` when
 * orphanDependents and propagationPolicy are both set (from the query or the body) or the policy is unknown; the
 * object stays. orphanDependents is a boolean query parameter like any other (any spelling but 0/false is true).
 */
import test, { type ExecutionContext } from 'ava';
import { createNamespace, createWidget, expectStatus, useTestServer, widgetsPath, type TestResponse } from '../helpers/test-server.js';

const server = useTestServer({ widgetsCrd: true });

const bothSet = (policy: string) => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: "${policy}": orphanDependents and deletionPropagation cannot be both set`,
  field: 'propagationPolicy',
});

function expectInvalidDeleteOptions(t: ExecutionContext, res: TestResponse, causes: { reason: string; message: string; field: string }[], label: string): void {
  const summary = causes.map((c) => `${c.field}: ${c.message}`);
  const message = `DeleteOptions.meta.k8s.io "" is invalid: ${summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`}`;
  expectStatus(t, res, { code: 422, reason: 'Invalid', message });
  t.deepEqual(res.body?.details, { group: 'meta.k8s.io', kind: 'DeleteOptions', causes }, label);
}

test('orphanDependents with propagationPolicy is 422 Invalid, from the query or the body, and deletes nothing; either alone deletes', async (t) => {
  const ns = await createNamespace(server, 'delopts');
  const w1 = await createWidget(server, ns, 'w1');
  const attempts: [string, string, unknown?][] = [
    ['query, orphanDependents=true', `${widgetsPath(ns, 'w1')}?orphanDependents=true&propagationPolicy=Background`],
    ['query, orphanDependents=True', `${widgetsPath(ns, 'w1')}?orphanDependents=True&propagationPolicy=Background`],
    ['query, bare orphanDependents', `${widgetsPath(ns, 'w1')}?orphanDependents&propagationPolicy=Background`],
    ['query, orphanDependents=false', `${widgetsPath(ns, 'w1')}?orphanDependents=false&propagationPolicy=Background`],
    ['body', widgetsPath(ns, 'w1'), { apiVersion: 'v1', kind: 'DeleteOptions', orphanDependents: false, propagationPolicy: 'Background' }],
    ['deletecollection', `${widgetsPath(ns)}?orphanDependents=1&propagationPolicy=Background`],
  ];
  for (const [label, path, body] of attempts) {
    const res = await server.request('DELETE', path, body === undefined ? {} : { body });
    expectInvalidDeleteOptions(t, res, [bothSet('Background')], label);
  }
  const get = await server.request('GET', widgetsPath(ns, 'w1'));
  t.is(get.body?.metadata?.uid, w1.metadata.uid, 'w1 is still there');

  // Either one alone deletes.
  await createWidget(server, ns, 'w2');
  const orphan = await server.request('DELETE', `${widgetsPath(ns, 'w1')}?orphanDependents=False`);
  t.is(orphan.status, 200, orphan.text);
  const policy = await server.request('DELETE', `${widgetsPath(ns, 'w2')}?propagationPolicy=Background`);
  t.is(policy.status, 200, policy.text);
  t.deepEqual((await server.request('GET', widgetsPath(ns))).body.items, []);
});

test('an unknown propagationPolicy is 422 NotSupported, listing "nil" as kube does', async (t) => {
  const ns = await createNamespace(server, 'delopts');
  await createWidget(server, ns, 'w1');
  const notSupported = {
    reason: 'FieldValueNotSupported',
    message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    field: 'propagationPolicy',
  };
  const alone = await server.request('DELETE', `${widgetsPath(ns, 'w1')}?propagationPolicy=Sideways`);
  expectInvalidDeleteOptions(t, alone, [notSupported], 'alone');
  const withOrphan = await server.request('DELETE', `${widgetsPath(ns, 'w1')}?propagationPolicy=Sideways&orphanDependents=false`);
  expectInvalidDeleteOptions(t, withOrphan, [bothSet('Sideways'), notSupported], 'with orphanDependents');
});
