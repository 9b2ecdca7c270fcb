import test from 'ava';
import { serviceCondition, withAvailableCondition, passedAvailable } from '../../../../builtin/apiregistration/apiservice-available-condition.js';
import type { APIService } from '../../../../builtin/apiregistration/apiservice-types.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';

const remote: APIService = { metadata: { name: 'v1.wardle.example.com' }, spec: { group: 'wardle.example.com', version: 'v1', service: { namespace: 'wardle', name: 'api', port: 8443 } } };
const byKey = (...objects: KubeObject[]) => new Map(objects.map((o) => [`${o.metadata!.namespace}/${o.metadata!.name}`, o]));
const service = (spec: Record<string, unknown>) => ({ metadata: { namespace: 'wardle', name: 'api' }, spec }) as KubeObject;
const endpoints = (subsets: unknown[]) => ({ metadata: { namespace: 'wardle', name: 'api' }, subsets }) as KubeObject;

test('the Service checks, in kube\'s order and words', (t) => {
  t.deepEqual(serviceCondition(remote, byKey(), byKey()), { status: 'False', reason: 'ServiceNotFound', message: 'service/api in "wardle" is not present' });
  t.deepEqual(serviceCondition(remote, byKey(service({ ports: [{ port: 443 }] })), byKey()), {
    status: 'False',
    reason: 'ServicePortError',
    message: 'service/api in "wardle" is not listening on port 8443',
  });
  const svc = byKey(service({ ports: [{ port: 8443, name: 'https' }] }));
  t.like(serviceCondition(remote, svc, byKey()), { reason: 'EndpointsNotFound', message: 'cannot find endpoints for service/api in "wardle"' });
  t.like(serviceCondition(remote, svc, byKey(endpoints([{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 1, name: 'other' }] }, { notReadyAddresses: [{ ip: '10.1.1.2' }], ports: [{ port: 1, name: 'https' }] }]))), {
    reason: 'MissingEndpoints',
    message: 'endpoints for service/api in "wardle" have no addresses with port name "https"',
  });
  t.is(serviceCondition(remote, svc, byKey(endpoints([{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 1, name: 'https' }] }]))), undefined);
  // only ClusterIP Services are checked further; an ExternalName one goes straight to the discovery check
  t.is(serviceCondition(remote, byKey(service({ type: 'ExternalName', externalName: 'api.example.com' })), byKey()), undefined);
});

test('the condition changes only what changed: its transition time moves with its status, an unchanged one is not written', (t) => {
  const failing: APIService = {
    ...remote,
    status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MissingEndpoints', message: 'm' }] },
  };
  t.deepEqual(withAvailableCondition(failing, passedAvailable, '2026-02-02T00:00:00Z'), {
    conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-02-02T00:00:00Z', reason: 'Passed', message: 'all checks passed' }],
  });
  t.deepEqual(withAvailableCondition(failing, { status: 'False', reason: 'ServiceNotFound', message: 'n' }, '2026-02-02T00:00:00Z'), {
    conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ServiceNotFound', message: 'n' }],
  });
  t.is(withAvailableCondition(failing, { status: 'False', reason: 'MissingEndpoints', message: 'm' }, '2026-02-02T00:00:00Z'), undefined);
  t.deepEqual(withAvailableCondition(remote, passedAvailable, '2026-02-02T00:00:00Z')?.conditions?.length, 1);
});
