// kubectl scale goes through the custom resource's schema and CEL rules; kubectl replace of a recreated object is a
// Conflict, as kubectl users see them against kube-apiserver.
import test from 'ava';
import { stringify } from 'yaml';
import { describe, tempFile, useKapi } from '../helpers/kapi-process.js';
import { gadgetsCrd } from '../helpers/gadgets-crd.js';

const kapi = useKapi();


const gadget = (name: string, replicas: number) => ({ apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name, namespace: 'default' }, spec: { replicas } });

test.before(async () => {
  const crd = await kapi.kubectl(['apply', '-f', tempFile('gadgets-crd.yaml', stringify(gadgetsCrd))]);
  if (crd.code !== 0) throw new Error(describe(crd));
  const established = await kapi.kubectl(['wait', '--for=condition=Established', 'crd/gadgets.example.org', '--timeout=20s']);
  if (established.code !== 0) throw new Error(describe(established));
});

async function create(name: string, replicas: number): Promise<void> {
  const res = await kapi.kubectl(['create', '-f', tempFile(`${name}.yaml`, stringify(gadget(name, replicas)))]);
  if (res.code !== 0) throw new Error(describe(res));
}

async function replicasOf(name: string): Promise<string> {
  return (await kapi.kubectl(['get', 'gadget', name, '-o', 'jsonpath={.spec.replicas}'])).stdout;
}

test('kubectl scale above a CEL rule limit is refused with the rule\'s message', async (t) => {
  await create('e1', 2);
  const res = await kapi.kubectl(['scale', 'gadget', 'e1', '--replicas=11']);
  t.is(res.code, 1, describe(res));
  t.is(res.stderr, 'The Gadget "e1" is invalid: spec: Invalid value: "object": at most 10 replicas\n', describe(res));
  t.is(await replicasOf('e1'), '2');
  const ok = await kapi.kubectl(['scale', 'gadget', 'e1', '--replicas=5']);
  t.is(ok.stdout, 'gadget.example.org/e1 scaled\n', describe(ok));
  t.is(await replicasOf('e1'), '5');
});

test('kubectl scale above the schema maximum is refused with the schema\'s message', async (t) => {
  await create('e2', 1);
  const res = await kapi.kubectl(['scale', 'gadget', 'e2', '--replicas=50']);
  t.is(res.code, 1, describe(res));
  t.is(
    res.stderr,
    'The Gadget "e2" is invalid: \n' +
      '* spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 20\n' +
      '* spec: Invalid value: "object": at most 10 replicas\n',
    describe(res),
  );
  t.is(await replicasOf('e2'), '1');
});

test('kubectl replace of an object deleted and recreated meanwhile is a Conflict', async (t) => {
  await create('e3', 1);
  const saved = await kapi.kubectl(['get', 'gadget', 'e3', '-o', 'yaml']);
  t.is(saved.code, 0, describe(saved));
  const file = tempFile('e3-saved.yaml', saved.stdout.replace('replicas: 1', 'replicas: 3'));
  t.is((await kapi.kubectl(['delete', 'gadget', 'e3'])).code, 0);
  await create('e3', 1);
  const res = await kapi.kubectl(['replace', '-f', file]);
  t.is(res.code, 1, describe(res));
  t.regex(res.stderr, /^Error from server \(Conflict\): error when replacing ".*e3-saved\.yaml": Operation cannot be fulfilled on gadgets\.example\.org "e3": StorageError: invalid object, Code: 4, Key: \/registry\/example\.org\/gadgets\/default\/e3, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: [0-9a-f-]{36}, UID in object meta: [0-9a-f-]{36}\n$/, describe(res));
  t.is(await replicasOf('e3'), '1');
});
