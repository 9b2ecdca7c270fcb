import test from 'ava';
import { ApiError } from '../../../../core/contracts/api-error.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';
import type { Informer } from '../../../../core/contracts/informer.js';
import { EndpointsServiceResolver, serviceURLs } from '../../../../builtin/services/service-urls.js';

const byKey = (...objects: KubeObject[]) => new Map(objects.map((o) => [`${o.metadata!.namespace}/${o.metadata!.name}`, o]));
const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns' }, spec });
const ep = (name: string, subsets: unknown[]): KubeObject => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: 'ns' }, subsets });
const urls = (result: URL[]) => result.map((u) => u.href);

function apiError(t: import('ava').ExecutionContext, fn: () => unknown, code: number, message: string) {
  const err = t.throws(fn);
  t.true(err instanceof ApiError);
  t.is((err as ApiError).code, code);
  t.is(err?.message, message);
}

test('an ExternalName Service is its external host at the port asked for', (t) => {
  const services = byKey(svc('ext', { type: 'ExternalName', externalName: 'api.example.com' }));
  t.deepEqual(urls(serviceURLs({ namespace: 'ns', name: 'ext', port: 8443 }, services, new Map())), ['https://api.example.com:8443/']);
});

test('any other Service is its Endpoints\' ready addresses at the endpoint port named as the Service port', (t) => {
  const services = byKey(svc('api', { type: 'ClusterIP', ports: [{ name: 'https', port: 443 }, { name: 'metrics', port: 9090 }] }));
  const endpoints = byKey(
    ep('api', [
      { addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }], notReadyAddresses: [{ ip: '10.1.0.3' }], ports: [{ name: 'https', port: 8443 }, { name: 'metrics', port: 9100 }] },
      { addresses: [{ ip: 'fd00::1' }], ports: [{ name: 'https', port: 6443 }] },
    ]),
  );
  t.deepEqual(urls(serviceURLs({ namespace: 'ns', name: 'api', port: 443 }, services, endpoints)), [
    'https://10.1.0.1:8443/',
    'https://10.1.0.2:8443/',
    'https://[fd00::1]:6443/',
  ]);
  t.deepEqual(urls(serviceURLs({ namespace: 'ns', name: 'api', port: 9090 }, services, endpoints)), ['https://10.1.0.1:9100/', 'https://10.1.0.2:9100/']);
});

test('an unnamed single port matches the unnamed endpoint port (a selectorless Service and its hand-written Endpoints)', (t) => {
  const services = byKey(svc('hook', { ports: [{ port: 443 }] }));
  const endpoints = byKey(ep('hook', [{ addresses: [{ ip: '192.0.2.7' }], ports: [{ port: 9443 }] }]));
  t.deepEqual(urls(serviceURLs({ namespace: 'ns', name: 'hook', port: 443 }, services, endpoints)), ['https://192.0.2.7:9443/']);
});

test('kube\'s errors: no Service, no such port, no Endpoints, no ready address', (t) => {
  const services = byKey(svc('api', { ports: [{ name: 'https', port: 443 }] }), svc('lonely', { ports: [{ port: 80 }] }));
  const endpoints = byKey(ep('api', [{ notReadyAddresses: [{ ip: '10.1.0.3' }], ports: [{ name: 'https', port: 8443 }] }]));
  apiError(t, () => serviceURLs({ namespace: 'ns', name: 'missing', port: 443 }, services, endpoints), 404, 'service "missing" not found');
  apiError(t, () => serviceURLs({ namespace: 'other', name: 'api', port: 443 }, services, endpoints), 404, 'service "api" not found');
  apiError(t, () => serviceURLs({ namespace: 'ns', name: 'api', port: 80 }, services, endpoints), 503, 'no service port 80 found for service "api"');
  apiError(t, () => serviceURLs({ namespace: 'ns', name: 'lonely', port: 80 }, services, endpoints), 404, 'endpoints "lonely" not found');
  apiError(t, () => serviceURLs({ namespace: 'ns', name: 'api', port: 443 }, services, endpoints), 503, 'no endpoints available for service "api"');
});

test('the resolver follows its informers: a changed Endpoints object is read again, a deleted Service is missing', async (t) => {
  const informer = (objects: Map<string, KubeObject>): Informer => ({ synced: async () => undefined, current: () => objects, subscribe: () => () => undefined });
  const services = byKey(svc('api', { ports: [{ port: 443 }] }));
  const endpoints = byKey(ep('api', [{ addresses: [{ ip: '192.0.2.1' }], ports: [{ port: 8443 }] }]));
  const resolver = new EndpointsServiceResolver(
    () => informer(services),
    () => informer(endpoints),
  );
  const ref = { namespace: 'ns', name: 'api', port: 443 };
  t.is((await resolver.resolveEndpoint(ref)).href, 'https://192.0.2.1:8443/');
  t.is((await resolver.resolveEndpoint(ref)).href, 'https://192.0.2.1:8443/');
  endpoints.set('ns/api', ep('api', [{ addresses: [{ ip: '192.0.2.2' }], ports: [{ port: 9443 }] }]));
  t.is((await resolver.resolveEndpoint(ref)).href, 'https://192.0.2.2:9443/');
  services.delete('ns/api');
  await t.throwsAsync(resolver.resolveEndpoint(ref), { instanceOf: ApiError, message: 'service "api" not found' });
});
