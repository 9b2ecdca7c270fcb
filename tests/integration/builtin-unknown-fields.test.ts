/**
 * Unknown fields of built-in kinds, as kube's strict decoder handles them: dropped, and per fieldValidation warned
 * about (Warn, the default), refused (Strict: 400 on create and update, 422 on a patch) or passed over (Ignore).
 */
import test from 'ava';
import { suffix, useTestServer, waitFor } from '../helpers/test-server.js';
import { independentCbor } from '../helpers/independent-cbor.js';

const server = useTestServer();

interface Case {
  kind: string;
  collection: string;
  /** A valid object named `name` with one unknown field, at `path`. */
  body(name: string): Record<string, any>;
  /** The unknown field's path, as kube names it. */
  path: string;
  /** Whether the object holds the unknown field. */
  has(obj: Record<string, any>): boolean;
  /** A merge patch adding the unknown field. */
  patch: Record<string, unknown>;
}

const cases: Case[] = [
  {
    kind: 'Namespace',
    collection: '/api/v1/namespaces',
    body: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, bogus: 1 }),
    path: 'bogus',
    has: (obj) => 'bogus' in obj,
    patch: { bogus: 1 },
  },
  {
    kind: 'ConfigMap',
    collection: '/api/v1/namespaces/default/configmaps',
    body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labelz: { a: 'b' } }, data: { k: 'v' } }),
    path: 'metadata.labelz',
    has: (obj) => 'labelz' in obj.metadata,
    patch: { metadata: { labelz: { a: 'b' } } },
  },
  {
    kind: 'ValidatingAdmissionPolicy',
    collection: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
    body: (name) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression: 'true', mesage: 'typo' }],
      },
    }),
    path: 'spec.validations[0].mesage',
    has: (obj) => 'mesage' in obj.spec.validations[0],
    patch: { spec: { validations: [{ expression: 'true', mesage: 'typo' }] } },
  },
];

function warningOf(c: Case): string {
  return `299 - "unknown field \\"${c.path}\\""`;
}

function strictMessage(c: Case): string {
  return `${c.kind} in version "v1" cannot be handled as a ${c.kind}: strict decoding error: unknown field "${c.path}"`;
}

/** The object as created without the unknown field (so a patch or update can add it). */
function withoutUnknown(c: Case, name: string): Record<string, any> {
  const body = c.body(name);
  delete body.bogus;
  delete body.metadata.labelz;
  if (body.spec?.validations) delete body.spec.validations[0].mesage;
  return body;
}

for (const c of cases) {
  test(`${c.kind} create: Warn (the default) drops the field with kube's warning, Strict is a 400, Ignore drops it silently`, async (t) => {
    const strict = await server.request('POST', `${c.collection}?fieldValidation=Strict`, { body: c.body(`strict-${suffix()}`) });
    t.is(strict.status, 400);
    t.is(strict.body.reason, 'BadRequest');
    t.is(strict.body.message, strictMessage(c));

    const warnName = `warn-${suffix()}`;
    const warn = await server.request('POST', c.collection, { body: c.body(warnName) });
    t.is(warn.status, 201, warn.text);
    t.is(warn.headers['warning'], warningOf(c));
    t.false(c.has(warn.body));
    const stored = await server.request('GET', `${c.collection}/${warnName}`);
    t.false(c.has(stored.body));

    const ignore = await server.request('POST', `${c.collection}?fieldValidation=Ignore`, { body: c.body(`ignore-${suffix()}`) });
    t.is(ignore.status, 201);
    t.is(ignore.headers['warning'], undefined);
    t.false(c.has(ignore.body));
  });

  test(`${c.kind} update: the unknown field is warned about and dropped, or refused with a 400 under Strict`, async (t) => {
    const name = `update-${suffix()}`;
    const created = await server.request('POST', c.collection, { body: withoutUnknown(c, name) });
    t.is(created.status, 201, created.text);
    t.is(created.headers['warning'], undefined);
    // A controller may write the status meanwhile: each PUT names the current resourceVersion.
    const put = async (query: string) => {
      const current = await server.request('GET', `${c.collection}/${name}`);
      const body = { ...c.body(name), metadata: { ...c.body(name).metadata, resourceVersion: current.body.metadata.resourceVersion } };
      return server.request('PUT', `${c.collection}/${name}${query}`, { body });
    };
    const strict = await put('?fieldValidation=Strict');
    t.is(strict.status, 400);
    t.is(strict.body.message, strictMessage(c));

    const warn = await waitFor(async () => {
      const res = await put('');
      return res.status === 409 ? undefined : res;
    });
    t.is(warn.status, 200, warn.text);
    t.is(warn.headers['warning'], warningOf(c));
    t.false(c.has(warn.body));
    t.false(c.has((await server.request('GET', `${c.collection}/${name}`)).body));
  });

  test(`${c.kind} merge patch: the patched object's unknown field is warned about and dropped, or a 422 on "patch" under Strict`, async (t) => {
    const name = `patch-${suffix()}`;
    t.is((await server.request('POST', c.collection, { body: withoutUnknown(c, name) })).status, 201);
    const merge = { contentType: 'application/merge-patch+json', body: c.patch };

    const strict = await server.request('PATCH', `${c.collection}/${name}?fieldValidation=Strict`, merge);
    t.is(strict.status, 422);
    t.is(strict.body.details.causes.length, 1);
    t.is(strict.body.details.causes[0].field, 'patch');
    t.true(strict.body.details.causes[0].message.endsWith(`: strict decoding error: unknown field "${c.path}"`), strict.body.details.causes[0].message);

    const warn = await server.request('PATCH', `${c.collection}/${name}`, merge);
    t.is(warn.status, 200, warn.text);
    t.is(warn.headers['warning'], warningOf(c));
    t.false(c.has(warn.body));

    const ignore = await server.request('PATCH', `${c.collection}/${name}?fieldValidation=Ignore`, merge);
    t.is(ignore.status, 200);
    t.is(ignore.headers['warning'], undefined);
    t.false(c.has((await server.request('GET', `${c.collection}/${name}`)).body));
  });

  test(`${c.kind} server-side apply: an unknown field is refused as kube's field manager refuses it, whatever fieldValidation says`, async (t) => {
    const name = `apply-${suffix()}`;
    for (const fieldValidation of ['Ignore', 'Warn', 'Strict']) {
      const res = await server.request('PATCH', `${c.collection}/${name}?fieldManager=test&fieldValidation=${fieldValidation}`, {
        contentType: 'application/apply-patch+yaml',
        body: c.body(name),
      });
      t.true(res.status >= 400 && res.status < 500, `${res.status} ${res.text}`);
      t.true(res.body.message.endsWith(`: .${c.path}: field not declared in schema`), res.body.message);
    }
    t.is((await server.request('GET', `${c.collection}/${name}`)).status, 404);
  });
}

test('10,000 unknown fields: kube reports the first 100 (Strict lists them, Warn warns within its bounds); all are dropped', async (t) => {
  const fields = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, i]));
  const body = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...fields });
  const strict = await server.request('POST', '/api/v1/namespaces?fieldValidation=Strict', { body: body(`many-${suffix()}`) });
  t.is(strict.status, 400);
  const listed = strict.body.message.split(', ');
  t.is(listed.length, 100);
  t.true(listed[99].endsWith('unknown field "f99"'));

  const warn = await server.request('POST', '/api/v1/namespaces', { body: body(`many-${suffix()}`) });
  t.is(warn.status, 201);
  t.true(warn.headers['warning']!.startsWith('299 - "unknown field \\"f0\\""'));
  t.deepEqual(Object.keys(warn.body).sort(), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
});

test("a CBOR body: kube's CBOR decoder names only the first unknown field's index in its map", async (t) => {
  const body = (name: string) => independentCbor.encode({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, bogus: 1 }, other: 2 });
  const options = (name: string) => ({ rawBody: body(name), contentType: 'application/cbor', headers: { accept: 'application/json' } });
  const strict = await server.request('POST', '/api/v1/namespaces?fieldValidation=Strict', options(`cbor-${suffix()}`));
  t.is(strict.status, 400);
  t.is(strict.body.message, 'Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: cbor: found unknown field at map element index 1');
  const warn = await server.request('POST', '/api/v1/namespaces', options(`cbor-${suffix()}`));
  t.is(warn.status, 201, warn.text);
  t.is(warn.headers['warning'], '299 - "cbor: found unknown field at map element index 1"');
  t.false('other' in warn.body);
  t.false('bogus' in warn.body.metadata);
});

test('strategic merge and JSON patches of a built-in kind: unknown fields of the patched object handled as for a merge patch', async (t) => {
  const name = `patches-${suffix()}`;
  t.is((await server.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } })).status, 201);
  const strategic = { contentType: 'application/strategic-merge-patch+json', body: { spec: { finalizers: ['kubernetes'], bogus: 1 } } };
  const warned = await server.request('PATCH', `/api/v1/namespaces/${name}`, strategic);
  t.is(warned.status, 200, warned.text);
  t.is(warned.headers['warning'], '299 - "unknown field \\"spec.bogus\\""');
  t.false('bogus' in warned.body.spec);
  const jsonPatch = { contentType: 'application/json-patch+json', body: [{ op: 'add', path: '/status/bogus', value: 1 }] };
  const strict = await server.request('PATCH', `/api/v1/namespaces/${name}?fieldValidation=Strict`, jsonPatch);
  t.is(strict.status, 422);
  t.true(strict.body.details.causes[0].message.endsWith(': strict decoding error: unknown field "status.bogus"'), strict.text);
});
