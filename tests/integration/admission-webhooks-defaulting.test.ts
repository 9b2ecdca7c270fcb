// After each mutating webhook's patch, an object typed by its schema gets that schema's defaults again (kube's
// defaulter runs on custom resources): a resource served from its own storage, typed by its schema, is written as a
// CRD's custom resource is (which its read defaults would default anyway).
import test from 'ava';
import { resourceModule, type KubeObject, type RestStorage } from '../../index.js';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { installCrd, suffix, useTestServer } from '../helpers/test-server.js';
import { allow, createWebhookTestNamespace, installWebhookConfigurations, patch, useWebhookServer, webhookConfiguration, widgetRules } from '../helpers/webhook-server.js';

const group = 'defaulting.example.com';
const schema: JSONSchemaProps = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 3 }, color: { type: 'string' } } } },
};

/** Cogs kept in memory: create only, as stored. */
const cogStorage: RestStorage = {
  async create(_ctx, object: KubeObject) {
    return { ...object, metadata: { ...object.metadata, resourceVersion: '1' } };
  },
};

const server = useTestServer({
  storage: 'memory',
  widgetsCrd: true,
  modules: [resourceModule({ group, versions: ['v1'], kind: 'Cog', plural: 'cogs', scope: 'Namespaced', schema, storage: cogStorage })],
});
const hooks = useWebhookServer();

const sprocketsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `sprockets.${group}` },
  spec: {
    group,
    names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', listKind: 'SprocketList' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
  },
};

test.before(() => installCrd(server, sprocketsCrd));

test('a webhook removing a defaulted field: custom resources and own-storage resources get the default again', async (t) => {
  const ns = await createWebhookTestNamespace(server, 'mwd');
  const path = `/unsize-${suffix()}`;
  // removes spec.size from what it is shown (the probe widgets have none: they are let through)
  hooks.handle(path, (review, p) => (review.request.object.spec?.size === undefined ? allow(review, p) : patch([{ op: 'remove', path: '/spec/size' }])(review, p)));
  const rules = [...widgetRules, { operations: ['CREATE'], apiGroups: [group], apiVersions: ['v1'], resources: ['sprockets', 'cogs'] }];
  await installWebhookConfigurations(server, hooks, 'Mutating', ns, { path }, webhookConfiguration('Mutating', `unsize-${suffix()}`, { path, rules }));

  for (const [plural, kind] of [['sprockets', 'Sprocket'], ['cogs', 'Cog']]) {
    const body = { apiVersion: `${group}/v1`, kind, metadata: { name: 'c1' }, spec: { size: 7, color: 'red' } };
    const res = await server.request('POST', `/apis/${group}/v1/namespaces/${ns}/${plural}`, { body });
    t.is(res.status, 201, res.text);
    t.deepEqual(res.body.spec, { size: 3, color: 'red' }, plural);
  }
  t.is(hooks.requestsTo(path).filter((r) => r.body?.request?.name === 'c1').length, 2);
});
