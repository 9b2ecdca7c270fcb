/**
 * A CRD's /scale subresource as kube's ScaleREST serves it: writes go through the custom resource's schema, CEL rules
 * and scale-field checks; admission sees autoscaling/v1 Scales.
 */
import test from 'ava';
import { errors, Tokens, type AdmissionAttributes, type AdmissionPlugin, type Module } from '../../index.js';
import { expectStatus, installCrd, suffix, useTestServer } from '../helpers/test-server.js';
import { gadgetsCrd } from '../helpers/gadgets-crd.js';

const base = '/apis/example.org/v1/namespaces/default/gadgets';


/** What admission saw of writes through /scale: `<phase> <kind> <object kind> <replicas> <old replicas>`. */
const seen: string[] = [];
const record = (phase: string, attrs: AdmissionAttributes) => {
  const replicas = (o: AdmissionAttributes['object'] | undefined) => (o?.spec as { replicas?: number } | undefined)?.replicas;
  seen.push(`${phase} ${attrs.name} ${attrs.kind.group}/${attrs.kind.version}/${attrs.kind.kind} ${attrs.object.kind} ${replicas(attrs.object)} ${replicas(attrs.oldObject)}`);
};

const scalePlugin: AdmissionPlugin = {
  name: 'ScaleWatcher',
  operations: ['UPDATE'],
  rules: [{ apiGroups: ['example.org'], resources: ['gadgets/scale'] }],
  sideEffects: 'None',
  admit(attrs) {
    record('admit', attrs);
    // Asking for 7 is rounded up to 8: mutating admission changes the Scale, and the object gets its replicas.
    const spec = attrs.object.spec as { replicas?: number };
    if (spec.replicas === 7) spec.replicas = 8;
  },
  validate(attrs) {
    record('validate', attrs);
    if ((attrs.object.spec as { replicas?: number }).replicas === 3) {
      throw errors.forbidden({ group: 'autoscaling', resource: 'scale', name: attrs.name }, 'three is not allowed');
    }
  },
};

const plugins: Module = (c) => c.register(Tokens.AdmissionPlugin, { useValue: scalePlugin });

const server = useTestServer({ storage: 'memory', modules: [plugins] });

test.before(async () => {
  await installCrd(server, gadgetsCrd);
});

async function gadget(spec: Record<string, unknown>): Promise<string> {
  const name = `g-${suffix()}`;
  const res = await server.request('POST', base, { body: { apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name }, spec } });
  if (res.status !== 201) throw new Error(res.text);
  return name;
}

const scaleTo = (name: string, replicas: number) =>
  server.request('PATCH', `${base}/${name}/scale`, { body: { spec: { replicas } }, contentType: 'application/merge-patch+json' });

test('scaling above a CEL rule limit is refused with the custom resource\'s 422, and nothing changes', async (t) => {
  const name = await gadget({ replicas: 1 });
  const res = await scaleTo(name, 11);
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Gadget.example.org "${name}" is invalid: spec: Invalid value: "object": at most 10 replicas` });
  t.is((await server.request('GET', `${base}/${name}`)).body.spec.replicas, 1);
});

test('scaling above the schema maximum is refused with the schema message', async (t) => {
  const name = await gadget({ replicas: 1 });
  const res = await server.request('PUT', `${base}/${name}/scale`, {
    body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: 'default' }, spec: { replicas: 50 } },
  });
  expectStatus(t, res, { code: 422, reason: 'Invalid' });
  t.is(
    res.body.message,
    `Gadget.example.org "${name}" is invalid: [spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 20, spec: Invalid value: "object": at most 10 replicas]`,
  );
  t.is((await server.request('GET', `${base}/${name}`)).body.spec.replicas, 1);
});

test('negative replicas are refused by the scale field check, as kube\'s custom resource validator does', async (t) => {
  const name = await gadget({ replicas: 1 });
  const res = await scaleTo(name, -2);
  expectStatus(t, res, { code: 422, reason: 'Invalid', message: `Gadget.example.org "${name}" is invalid: .spec.replicas: Invalid value: -2: should be a non-negative integer` });
  // The same check guards writes of the object itself.
  const direct = await server.request('PATCH', `${base}/${name}`, { body: { spec: { replicas: -1 } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, direct, { code: 422, reason: 'Invalid', message: `Gadget.example.org "${name}" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer` });
});

test('admission sees autoscaling/v1 Scales, mutating admission changes the stored replicas, validating admission can refuse', async (t) => {
  const name = await gadget({ replicas: 2 });
  const res = await scaleTo(name, 7);
  t.is(res.status, 200, res.text);
  t.like(res.body, { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 8 } });
  t.is((await server.request('GET', `${base}/${name}`)).body.spec.replicas, 8);
  t.deepEqual(
    seen.filter((s) => s.split(' ')[1] === name),
    [`admit ${name} autoscaling/v1/Scale Scale 7 2`, `validate ${name} autoscaling/v1/Scale Scale 8 2`],
  );
  const refused = await scaleTo(name, 3);
  expectStatus(t, refused, { code: 403, reason: 'Forbidden' });
  t.is((await server.request('GET', `${base}/${name}`)).body.spec.replicas, 8);
});

test('the Scale of an object without spec replicas, and writes to it', async (t) => {
  const name = await gadget({ size: 'small' });
  const scale = await server.request('GET', `${base}/${name}/scale`);
  t.is(scale.status, 200);
  t.deepEqual(scale.body.spec, {});
  t.deepEqual(scale.body.status, { replicas: 0 });
  // A patch that leaves the replicas unset cannot be written, as in kube.
  const untouched = await server.request('PATCH', `${base}/${name}/scale`, { body: { metadata: { labels: { a: 'b' } } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, untouched, { code: 400, reason: 'BadRequest', message: 'the spec replicas field ".spec.replicas" cannot be empty' });
  t.is((await scaleTo(name, 4)).status, 200);
  t.is((await server.request('GET', `${base}/${name}`)).body.spec.replicas, 4);
});

test('a Scale whose replicas are not an int32 is a 400 decode error', async (t) => {
  const name = await gadget({ replicas: 1 });
  const res = await server.request('PATCH', `${base}/${name}/scale`, { body: { spec: { replicas: 'two' } }, contentType: 'application/merge-patch+json' });
  expectStatus(t, res, {
    code: 400,
    reason: 'BadRequest',
    message: 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
  });
});
