// kubectl against a CRD converted by a webhook: a v2 manifest applied and read back in both versions
// (`kubectl get <plural>.<version>.<group>`), and kube's error when the webhook fails.
import test from 'ava';
import { describe, table, tempFile, useKapi } from '../helpers/kapi-process.js';
import { startWebhookServer, type TestWebhookServer } from '../helpers/webhook-server.js';
import { gadget, gadgetConverter, gadgetsCrd, reviewAnswer } from '../helpers/conversion-webhook.js';

const kapi = useKapi();
const group = 'example.com';
let hooks: TestWebhookServer;
let failing = false;

test.serial.before(async (t) => {
  hooks = await startWebhookServer();
  const convert = gadgetConverter();
  hooks.handle('/convert', (review) => (failing ? reviewAnswer(review, [], { status: 'Failure', message: 'converter is down' }) : convert(review, '/convert')));
  const crd = tempFile('gadgets-crd.json', JSON.stringify(gadgetsCrd({ url: hooks.url('/convert'), caBundle: hooks.caBundle }, { group })));
  for (const args of [['apply', '-f', crd], ['wait', '--for', 'condition=established', '--timeout=20s', `crd/gadgets.${group}`], ['create', 'namespace', 'demo']]) {
    const res = await kapi.kubectl(args);
    t.is(res.code, 0, describe(res));
  }
});

test.after.always(async () => {
  await hooks?.close();
});

const manifest = (colour: string) => tempFile('gadget.json', JSON.stringify(gadget('v2', 'g1', colour, group)));

test.serial('kubectl apply -f of a v2 manifest creates, then leaves unchanged, then configures', async (t) => {
  const created = await kapi.kubectl(['-n', 'demo', 'apply', '-f', manifest('red')]);
  t.is(created.code, 0, describe(created));
  t.is(created.stdout, `gadget.${group}/g1 created\n`, describe(created));
  const again = await kapi.kubectl(['-n', 'demo', 'apply', '-f', manifest('red')]);
  t.is(again.stdout, `gadget.${group}/g1 unchanged\n`, describe(again));
  const changed = await kapi.kubectl(['-n', 'demo', 'apply', '-f', manifest('blue')]);
  t.is(changed.stdout, `gadget.${group}/g1 configured\n`, describe(changed));
  const v1 = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v1.${group}`, 'g1', '-o', 'jsonpath={.apiVersion} {.spec.color}']);
  t.is(v1.stdout, `${group}/v1 blue`, describe(v1));
});

test.serial('kubectl get <plural>.<version>.<group> reads through the webhook, as a table and as YAML', async (t) => {
  const v2 = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v2.${group}`]);
  t.is(v2.code, 0, describe(v2));
  const rows = table(v2.stdout);
  t.deepEqual(rows, [
    ['NAME', 'COLOUR'],
    ['g1', 'blue'],
  ]);
  const v1 = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v1.${group}`]);
  t.deepEqual(table(v1.stdout), [
    ['NAME', 'COLOR'],
    ['g1', 'blue'],
  ]);
  const yaml = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v2.${group}`, 'g1', '-o', 'yaml']);
  t.regex(yaml.stdout, new RegExp(`^apiVersion: ${group}/v2$`, 'm'));
  t.regex(yaml.stdout, /^ {2}colour: blue$/m);
  t.notRegex(yaml.stdout, /^ {2}color:/m);
});

test.serial('kubectl apply --server-side of a v2 manifest', async (t) => {
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '--server-side', '--force-conflicts', '-f', manifest('green')]);
  t.is(res.code, 0, describe(res));
  t.is(res.stdout, `gadget.${group}/g1 serverside-applied\n`, describe(res));
  const v1 = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v1.${group}`, 'g1', '-o', 'jsonpath={.spec.color}']);
  t.is(v1.stdout, 'green', describe(v1));
});

test.serial('a failing webhook: kubectl prints kube error for v2 and still reads v1', async (t) => {
  failing = true;
  try {
    const v2 = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v2.${group}`, 'g1']);
    t.not(v2.code, 0);
    t.is(v2.stderr.trim(), `Error from server: conversion webhook for ${group}/v1, Kind=Gadget failed: converter is down`, describe(v2));
    const v1 = await kapi.kubectl(['-n', 'demo', 'get', `gadgets.v1.${group}`, 'g1', '-o', 'jsonpath={.spec.color}']);
    t.is(v1.stdout, 'green', describe(v1));
  } finally {
    failing = false;
  }
});
