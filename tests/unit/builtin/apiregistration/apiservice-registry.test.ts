// The registry the aggregation layer asks for a group-version's backend: fed by the APIService informer, only
// service-backed APIServices, their port defaulted and caBundle decoded; listeners hear of changes to them only.
import 'reflect-metadata';
import test from 'ava';
import { container } from 'tsyringe';
import { InformedAPIServiceRegistry } from '../../../../builtin/apiregistration/apiservice-registry.js';
import type { APIService } from '../../../../builtin/apiregistration/apiservice-types.js';
import type { Informer, InformerEvent } from '../../../../core/contracts/informer.js';
import type { KubeObject } from '../../../../core/contracts/resource-type.js';
import { Tokens } from '../../../../core/contracts/tokens.js';

/** An informer whose objects the test sets, telling its subscriber as the watch cache would. */
class FakeInformer implements Informer {
  readonly objects = new Map<string, KubeObject>();
  private listener?: (events: InformerEvent[]) => void;
  synced = () => Promise.resolve();
  current = () => this.objects;
  subscribe(onEvents: (events: InformerEvent[]) => void) {
    this.listener = onEvents;
    return () => (this.listener = undefined);
  }
  put(object: APIService): void {
    this.objects.set(object.metadata!.name!, object);
    this.listener?.([{ type: 'MODIFIED', object }]);
  }
}

function setUp() {
  const informer = new FakeInformer();
  const c = container.createChildContainer();
  c.register(Tokens.Informers, { useValue: { forResource: () => informer } });
  return { informer, registry: new InformedAPIServiceRegistry(c) };
}

const apiService = (group: string, version: string, spec: APIService['spec']): APIService => ({
  metadata: { name: `${version}.${group}` },
  spec: { group, version, groupPriorityMinimum: 100, versionPriority: 10, ...spec },
});

test('a service-backed APIService is found by group and version; a local one is not', async (t) => {
  const { informer, registry } = setUp();
  informer.put(apiService('metrics.example.com', 'v1beta1', { service: { namespace: 'monitoring', name: 'metrics' }, caBundle: Buffer.from('-----PEM-----').toString('base64') }));
  informer.put(apiService('local.example.com', 'v1', {}));
  await registry.start();
  t.deepEqual(registry.remote('metrics.example.com', 'v1beta1'), {
    name: 'v1beta1.metrics.example.com',
    group: 'metrics.example.com',
    version: 'v1beta1',
    service: { namespace: 'monitoring', name: 'metrics', port: 443 },
    caBundle: '-----PEM-----',
    insecureSkipTLSVerify: false,
    groupPriorityMinimum: 100,
    versionPriority: 10,
  });
  t.is(registry.remote('local.example.com', 'v1'), undefined);
  t.is(registry.remote('metrics.example.com', 'v1'), undefined);
  t.deepEqual(registry.remotes().map((r) => r.name), ['v1beta1.metrics.example.com']);
  await registry.stop();
});

test('changes to service-backed APIServices bump the generation and tell the listeners; local ones do not', async (t) => {
  const { informer, registry } = setUp();
  await registry.start();
  let told = 0;
  const unsubscribe = registry.onChange(() => told++);
  const before = registry.generation;
  informer.put(apiService('local.example.com', 'v1', {}));
  t.is(told, 0);
  t.is(registry.generation, before);
  informer.put(apiService('a.example.com', 'v1', { service: { namespace: 'n', name: 's', port: 8443 } }));
  t.is(told, 1);
  t.is(registry.remote('a.example.com', 'v1')?.service.port, 8443);
  informer.put(apiService('a.example.com', 'v1', { service: { namespace: 'n', name: 's', port: 9443 }, insecureSkipTLSVerify: true }));
  t.is(told, 2);
  t.true(registry.remote('a.example.com', 'v1')?.insecureSkipTLSVerify);
  t.true(registry.generation > before);
  unsubscribe();
  informer.put(apiService('a.example.com', 'v1', {}));
  t.is(told, 2);
  t.is(registry.remote('a.example.com', 'v1'), undefined, 'no longer service-backed');
  await registry.stop();
});
