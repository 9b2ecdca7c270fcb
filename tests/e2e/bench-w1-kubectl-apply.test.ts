// The core benchmark's GET reads a widget w1 that bench/widgets.ts creates "as kubectl apply does": the server must
// then hold and answer the same object, byte for byte, as when the real kubectl applies the same manifest (the
// last-applied-configuration annotation as kubectl encodes it, kubectl-client-side-apply's managedFields).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { httpsClient } from '../../bench/https-client.js';
import { applyWidgetW1, w1Manifest, widgetPath } from '../../bench/widgets.js';
import { describe, setUpWidgets, tempFile, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi();

/** GET of w1 as the bench reads it, with what differs between any two creations (uid, times, resourceVersion) blanked. */
async function getW1(client: ReturnType<typeof httpsClient>): Promise<string> {
  const res = await client.request('GET', widgetPath);
  if (res.status !== 200) throw new Error(`GET w1: HTTP ${res.status}: ${res.body.toString('utf8')}`);
  const w = JSON.parse(res.body.toString('utf8')) as { metadata: Record<string, unknown> & { managedFields: { time: string }[] } };
  for (const field of ['uid', 'creationTimestamp', 'resourceVersion']) w.metadata[field] = field;
  for (const entry of w.metadata.managedFields) entry.time = 'time';
  return JSON.stringify(w);
}

test('w1 created by the bench is the object kubectl apply creates from the same manifest', async (t) => {
  await setUpWidgets(kapi);
  const token = (await readFile(join(kapi.dataDir, 'admin-token'), 'utf8')).trim();
  const client = httpsClient(kapi.url, await readFile(join(kapi.dataDir, 'pki', 'ca.crt'), 'utf8'), token);

  const applied = await kapi.kubectl(['apply', '-f', tempFile('w1.json', JSON.stringify(w1Manifest))]);
  t.is(applied.stdout, 'widget.example.com/w1 created\n', describe(applied));
  const byKubectl = await getW1(client);
  t.is((await kapi.kubectl(['delete', 'widget', 'w1', '-n', 'default'])).code, 0);

  await applyWidgetW1(client);
  const byBench = await getW1(client);
  client.close();
  t.is(byBench, byKubectl);
  t.true(byBench.includes('"manager":"kubectl-client-side-apply"'), byBench);
  t.true(byBench.includes('"kubectl.kubernetes.io/last-applied-configuration"'), byBench);
});
