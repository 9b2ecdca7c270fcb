// Admission reinvocation (what a mutating webhook's change asks of the chain): the mutating phase runs once more.
import test from 'ava';
import { AdmissionChain } from '../../../../core/admission/admission-chain.js';
import type { AdmissionAttributes } from '../../../../core/contracts/admission-attributes.js';
import { widgetAttributes } from '../../../helpers/admission-attributes.js';
import type { AdmissionPlugin } from '../../../../core/contracts/admission-plugin.js';
import { WebhookReinvokeContext } from '../../../../admission/webhook/webhook-reinvocation.js';

const attrs = (): AdmissionAttributes => widgetAttributes({ object: { metadata: { name: 'w' } } });

const plugin = (name: string, admit: AdmissionPlugin['admit']): AdmissionPlugin => ({
  name,
  operations: ['*'],
  rules: [{ apiGroups: ['*'], resources: ['*'] }],
  sideEffects: 'None',
  admit,
});

test('a plugin asking for reinvocation makes every mutating plugin run once more, and only once', async (t) => {
  const calls: string[] = [];
  const chain = new AdmissionChain([
    plugin('first', (a) => void calls.push(`first reinvoke=${a.reinvocation?.isReinvoke ?? false}`)),
    plugin('changer', (a) => {
      calls.push(`changer reinvoke=${a.reinvocation?.isReinvoke ?? false}`);
      a.reinvocation ??= { shouldReinvoke: false, isReinvoke: false, state: new Map() };
      a.reinvocation.shouldReinvoke = true;
    }),
  ]);
  await chain.admit(attrs());
  t.deepEqual(calls, ['first reinvoke=false', 'changer reinvoke=false', 'first reinvoke=true', 'changer reinvoke=true']);
});

test('without a request for it the mutating phase runs once', async (t) => {
  let runs = 0;
  await new AdmissionChain([plugin('p', () => void runs++)]).admit(attrs());
  t.is(runs, 1);
});

test('webhooks invoked before a change are reinvoked; the context tells whether others changed the object', (t) => {
  const ctx = new WebhookReinvokeContext();
  ctx.addPreviouslyInvoked('a/h/0');
  ctx.requireReinvokingPreviouslyInvoked();
  ctx.addPreviouslyInvoked('b/h/0');
  t.true(ctx.shouldReinvoke('a/h/0'));
  t.false(ctx.shouldReinvoke('b/h/0'), 'invoked after the last change: it already saw it');
  const obj = { metadata: { name: 'w', labels: { x: '1' } } };
  ctx.setLastOutput(obj);
  t.false(ctx.outputChangedSince({ metadata: { name: 'w', labels: { x: '1' } } }));
  obj.metadata.labels.x = '2';
  t.true(ctx.outputChangedSince(obj), 'a copy was kept');
});
