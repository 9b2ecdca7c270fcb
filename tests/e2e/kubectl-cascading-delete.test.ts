// kubectl delete --cascade=background|foreground|orphan on a custom-resource owner: what `kubectl get` shows after.
import test from 'ava';
import { describe, eventually, useKapi } from '../helpers/kapi-process.js';

const kapi = useKapi({ widgets: true });

const hold = 'example.com/hold';

async function kubectlOk(args: string[], stdin?: string): Promise<string> {
  const res = await kapi.kubectl(['-n', 'demo', ...args], stdin === undefined ? {} : { stdin });
  if (res.code !== 0) throw new Error(describe(res));
  return res.stdout;
}

/** Creates widget `name`; with `owner`, owned by that widget (blocking its deletion when `block`). */
async function createWidget(name: string, opts: { owner?: string; block?: boolean; finalizers?: string[] } = {}): Promise<void> {
  const meta: Record<string, unknown> = { name };
  if (opts.finalizers) meta.finalizers = opts.finalizers;
  if (opts.owner) {
    const uid = await kubectlOk(['get', 'widget', opts.owner, '-o', 'jsonpath={.metadata.uid}']);
    meta.ownerReferences = [{ apiVersion: 'example.com/v1', kind: 'Widget', name: opts.owner, uid, ...(opts.block ? { blockOwnerDeletion: true } : {}) }];
  }
  await kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: meta, spec: { color: 'red', replicas: 1 } }));
}

/** The names `kubectl get widgets -o name` lists, once `done` holds for them (or the last ones after 15 s). */
function widgetsUntil(done: (names: string) => boolean): Promise<string> {
  return eventually(() => kubectlOk(['get', 'widgets', '-o', 'name']), done, 15_000);
}

test.serial('--cascade=background deletes the owner, then its dependents', async (t) => {
  await createWidget('bg-owner');
  await createWidget('bg-dep1', { owner: 'bg-owner' });
  await createWidget('bg-dep2', { owner: 'bg-owner', block: true });

  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'bg-owner', '--cascade=background']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "bg-owner" deleted\n', describe(del));
  t.is(await widgetsUntil((names) => !names.includes('bg-')), '');
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widgets']);
  t.is(get.stderr, 'No resources found in demo namespace.\n', describe(get));
});

test.serial('--cascade=foreground keeps the owner until its blocking dependent is gone', async (t) => {
  await createWidget('fg-owner');
  await createWidget('fg-blocking', { owner: 'fg-owner', block: true, finalizers: [hold] });
  await createWidget('fg-free', { owner: 'fg-owner' });

  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'fg-owner', '--cascade=foreground', '--wait=false']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "fg-owner" deleted\n', describe(del));

  // The free dependent goes; the blocking one is deleting but held by its finalizer, and holds the owner.
  t.is(await widgetsUntil((names) => !names.includes('fg-free')), 'widget.example.com/fg-blocking\nwidget.example.com/fg-owner\n');
  const blocking = await eventually(
    () => kubectlOk(['get', 'widget', 'fg-blocking', '-o', 'jsonpath={.metadata.deletionTimestamp}']),
    (ts) => ts !== '',
  );
  t.regex(blocking, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.is(await kubectlOk(['get', 'widget', 'fg-owner', '-o', 'jsonpath={.metadata.finalizers}']), '["foregroundDeletion"]');

  await kubectlOk(['patch', 'widget', 'fg-blocking', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  t.is(await widgetsUntil((names) => names === ''), '', 'the owner goes once its blocking dependent is gone');
});

test.serial('--cascade=foreground waits (kubectl --wait) until owner and dependents are gone', async (t) => {
  await createWidget('fgw-owner');
  await createWidget('fgw-dep', { owner: 'fgw-owner', block: true });
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'fgw-owner', '--cascade=foreground', '--timeout=30s']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "fgw-owner" deleted\n', describe(del));
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'widgets', '-o', 'name']);
  t.is(get.stdout, '', 'kubectl returned once the owner was gone, after its blocking dependent');
});

test.serial('--cascade=orphan deletes the owner and leaves its dependents without the reference', async (t) => {
  await createWidget('or-owner');
  await createWidget('or-dep', { owner: 'or-owner', block: true });
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'widget', 'or-owner', '--cascade=orphan', '--timeout=30s']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, 'widget.example.com "or-owner" deleted\n', describe(del));
  t.is(await kubectlOk(['get', 'widgets', '-o', 'name']), 'widget.example.com/or-dep\n');
  t.is(await kubectlOk(['get', 'widget', 'or-dep', '-o', 'jsonpath={.metadata.ownerReferences}']), '');
  await kubectlOk(['delete', 'widget', 'or-dep']);
});
