// What kubectl does with a CRD's schema: explain reads the published OpenAPI, scale uses the /scale subresource.
import test from 'ava';
import { describe, example, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

test.before(async () => {
  const res = await kapi.kubectl(['-n', 'demo', 'apply', '-f', example('widget.yaml')]);
  if (res.code !== 0) throw new Error(describe(res));
});

test('kubectl explain describes the schema of a custom resource', async (t) => {
  const res = await kapi.kubectl(['explain', 'widget.spec']);
  t.is(res.code, 0, describe(res));
  t.regex(res.stdout, /KIND:\s+Widget/);
  t.regex(res.stdout, /VERSION:\s+v1/);
  t.regex(res.stdout, /FIELD:\s+spec <Object>/);
  t.regex(res.stdout, /color\s+<string>/);
  t.regex(res.stdout, /replicas\s+<integer>/);
});

test('kubectl scale changes the replicas through /scale', async (t) => {
  const scaled = await kapi.kubectl(['-n', 'demo', 'scale', 'widget', 'w1', '--replicas=5']);
  t.is(scaled.code, 0, describe(scaled));
  t.is(scaled.stdout, 'widget.example.com/w1 scaled\n');
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widget', 'w1', '-o', 'jsonpath={.spec.replicas}']);
  t.is(get.stdout, '5');
  const negative = await kapi.kubectl(['-n', 'demo', 'scale', 'widget', 'w1', '--replicas=-1']);
  t.not(negative.code, 0);
});
