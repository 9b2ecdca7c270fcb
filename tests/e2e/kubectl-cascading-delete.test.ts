// kubectl delete --cascade=background|foreground|orphan on a custom-resource owner, and on owners (a custom resource, a
// ConfigMap) of ConfigMaps: what `kubectl get` shows after, and what `kubectl get -w` shows step by step.
import test, { type ExecutionContext } from 'ava';
import { describe, eventually, useKapi } from '../helpers/kapi-process.js';
import { killAllKubectlStreams, spawnKubectl, type KubectlStream } from '../helpers/kubectl-stream.js';

const kapi = useKapi({ widgets: true });

test.after.always(killAllKubectlStreams);

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

// ConfigMaps as dependents. Each test labels its objects `cascade=NAME` (and `role=owner|dependent`) so that its
// watches and lists see only them.

interface OwnerKind {
  /** What kubectl calls the resource, and prints before the name when it deletes one. */
  resource: string;
  printed: string;
  apiVersion: string;
  kind: string;
}

const ownerKinds: OwnerKind[] = [
  { resource: 'widget', printed: 'widget.example.com', apiVersion: 'example.com/v1', kind: 'Widget' },
  { resource: 'configmap', printed: 'configmap', apiVersion: 'v1', kind: 'ConfigMap' },
];

/** Creates the owner `NAME-owner` of kind `owner`, labelled for test `name`. */
async function createOwner(owner: OwnerKind, name: string): Promise<string> {
  const metadata = { name: `${name}-owner`, labels: { cascade: name, role: 'owner' } };
  const body = owner.kind === 'Widget' ? { spec: { color: 'red', replicas: 1 } } : { data: { role: 'owner' } };
  await kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: owner.apiVersion, kind: owner.kind, metadata, ...body }));
  return metadata.name;
}

/** Creates ConfigMap `NAME-SUFFIX` owned by `NAME-owner` (of kind `owner`), blocking its deletion. */
async function createDependent(owner: OwnerKind, name: string, suffix: string, finalizers?: string[]): Promise<void> {
  const uid = await kubectlOk(['get', owner.resource, `${name}-owner`, '-o', 'jsonpath={.metadata.uid}']);
  const metadata = {
    name: `${name}-${suffix}`,
    labels: { cascade: name, role: 'dependent' },
    ...(finalizers ? { finalizers } : {}),
    ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: `${name}-owner`, uid, blockOwnerDeletion: true }],
  };
  await kubectlOk(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { role: 'dependent' } }));
}

/** `kubectl get -w` of test `name`'s objects of one role: one line per watch event, the object as it was in it. */
function watchRole(resource: string, name: string, role: string): KubectlStream {
  const columns = 'EVENT:.type,NAME:.object.metadata.name,DELETING:.object.metadata.deletionTimestamp,FINALIZERS:.object.metadata.finalizers';
  const selector = `cascade=${name},role=${role}`;
  return spawnKubectl(kapi, ['-n', 'demo', 'get', resource, '-l', selector, '-w', '--output-watch-events', '-o', `custom-columns=${columns}`]);
}

/** The watch's lines with single spaces between columns and deletion timestamps as TIME. */
function events(watch: KubectlStream): string[] {
  return watch.lines.map((line) => line.trim().split(/\s+/).map((col) => (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(col) ? 'TIME' : col)).join(' '));
}

/** The names of test `name`'s objects of `resource` kubectl lists, once `done` holds for them (or the last after 15 s). */
function namesUntil(resource: string, name: string, done: (names: string) => boolean): Promise<string> {
  return eventually(() => kubectlOk(['get', resource, '-l', `cascade=${name}`, '-o', 'name']), done, 15_000);
}

async function foregroundWatched(t: ExecutionContext, owner: OwnerKind): Promise<void> {
  const name = `cm-fg-${owner.resource}`;
  const ownerName = await createOwner(owner, name);
  await createDependent(owner, name, 'free');
  await createDependent(owner, name, 'held', [hold]);
  const ownerWatch = watchRole(owner.resource, name, 'owner');
  const dependentsWatch = watchRole('configmaps', name, 'dependent');
  await ownerWatch.waitForLine(/^ADDED/);
  await dependentsWatch.waitForLine(/^ADDED +\S+-held/);

  const del = await kapi.kubectl(['-n', 'demo', 'delete', owner.resource, ownerName, '--cascade=foreground', '--wait=false']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, `${owner.printed} "${ownerName}" deleted\n`, describe(del));

  // The owner is deleting and waits; the free dependent goes; the held one is deleting and keeps the owner.
  await ownerWatch.waitForLine(/^MODIFIED/);
  await dependentsWatch.waitForLine(/^DELETED +\S+-free/);
  await dependentsWatch.waitForLine(/^MODIFIED +\S+-held +\d/);
  const header = 'EVENT NAME DELETING FINALIZERS';
  t.deepEqual(events(ownerWatch), [header, `ADDED ${ownerName} <none> <none>`, `MODIFIED ${ownerName} TIME [foregroundDeletion]`], ownerWatch.describe());
  t.is(await kubectlOk(['get', owner.resource, ownerName, '-o', 'jsonpath={.metadata.finalizers}']), '["foregroundDeletion"]', 'the owner is still there');

  // Its finalizer removed, the held dependent goes, then the owner.
  await kubectlOk(['patch', 'configmap', `${name}-held`, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  await dependentsWatch.waitForLine(/^DELETED +\S+-held/);
  await ownerWatch.waitForLine(/^DELETED/);
  t.deepEqual(
    events(ownerWatch),
    [header, `ADDED ${ownerName} <none> <none>`, `MODIFIED ${ownerName} TIME [foregroundDeletion]`, `DELETED ${ownerName} TIME [foregroundDeletion]`],
    ownerWatch.describe(),
  );
  const dependentEvents = events(dependentsWatch);
  const added = [`ADDED ${name}-free <none> <none>`, `ADDED ${name}-held <none> [${hold}]`];
  t.deepEqual(dependentEvents.slice(0, 3), [header, ...added], dependentsWatch.describe());
  // The GC deletes both dependents at once, in either order; the held one goes last, as it was when deleted.
  const deleting = [`DELETED ${name}-free <none> <none>`, `MODIFIED ${name}-held TIME [${hold}]`];
  t.deepEqual(dependentEvents.slice(3, 5).sort(), deleting, dependentsWatch.describe());
  t.deepEqual(dependentEvents.slice(5), [`DELETED ${name}-held TIME [${hold}]`], dependentsWatch.describe());
  t.is(await namesUntil('configmaps', name, (names) => names === ''), '');
  await Promise.all([ownerWatch.kill(), dependentsWatch.kill()]);
}

for (const owner of ownerKinds) {
  test.serial(`ConfigMaps owned by a ${owner.kind}: --cascade=foreground, watched step by step`, foregroundWatched, owner);

  test.serial(`ConfigMaps owned by a ${owner.kind}: --cascade=background deletes the owner, then them`, async (t) => {
    const name = `cm-bg-${owner.resource}`;
    const ownerName = await createOwner(owner, name);
    await createDependent(owner, name, 'a');
    await createDependent(owner, name, 'b');
    const del = await kapi.kubectl(['-n', 'demo', 'delete', owner.resource, ownerName, '--cascade=background']);
    t.is(del.code, 0, describe(del));
    t.is(del.stdout, `${owner.printed} "${ownerName}" deleted\n`, describe(del));
    t.is(await kubectlOk(['get', owner.resource, '-l', `cascade=${name},role=owner`, '-o', 'name']), '', 'the owner is gone when kubectl returns');
    t.is(await namesUntil('configmaps', name, (names) => names === ''), '');
  });

  test.serial(`ConfigMaps owned by a ${owner.kind}: --cascade=orphan leaves them without the ownerReference`, async (t) => {
    const name = `cm-or-${owner.resource}`;
    const ownerName = await createOwner(owner, name);
    await createDependent(owner, name, 'a');
    await createDependent(owner, name, 'b');
    const del = await kapi.kubectl(['-n', 'demo', 'delete', owner.resource, ownerName, '--cascade=orphan']);
    t.is(del.code, 0, describe(del));
    t.is(del.stdout, `${owner.printed} "${ownerName}" deleted\n`, describe(del));
    t.is(await kubectlOk(['get', owner.resource, '-l', `cascade=${name},role=owner`, '-o', 'name']), '');
    const references = 'jsonpath={range .items[*]}{.metadata.name}:{.metadata.ownerReferences}{"\\n"}{end}';
    t.is(await kubectlOk(['get', 'configmaps', '-l', `cascade=${name}`, '-o', references]), `${name}-a:\n${name}-b:\n`);
    await kubectlOk(['delete', 'configmaps', '-l', `cascade=${name}`]);
  });
}

test.serial('ConfigMaps owning each other (a cycle), one deleted in the foreground: kubectl --wait returns and both are gone', async (t) => {
  const name = 'cm-cycle';
  for (const suffix of ['a', 'b']) {
    await kubectlOk(['create', 'configmap', `${name}-${suffix}`, '--from-literal=k=v']);
    await kubectlOk(['label', 'configmap', `${name}-${suffix}`, `cascade=${name}`]);
  }
  for (const [dependent, owner] of [['a', 'b'], ['b', 'a']]) {
    const uid = await kubectlOk(['get', 'configmap', `${name}-${owner}`, '-o', 'jsonpath={.metadata.uid}']);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `${name}-${owner}`, uid, blockOwnerDeletion: true };
    await kubectlOk(['patch', 'configmap', `${name}-${dependent}`, '--type=merge', '-p', JSON.stringify({ metadata: { ownerReferences: [ref] } })]);
  }
  const del = await kapi.kubectl(['-n', 'demo', 'delete', 'configmap', `${name}-a`, '--cascade=foreground', '--timeout=30s']);
  t.is(del.code, 0, describe(del));
  t.is(del.stdout, `configmap "${name}-a" deleted\n`, describe(del));
  t.is(await namesUntil('configmaps', name, (names) => names === ''), '', 'neither waits for the other forever');
});

test.serial('ownerReferences without kind or uid: kube\'s 422 texts on create and on patch, nothing stored', async (t) => {
  const configMap = (ref: Record<string, unknown>) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad-refs', ownerReferences: [ref] }, data: { k: 'v' } });
  const create = await kapi.kubectl(['-n', 'demo', 'create', '-f', '-'], { stdin: configMap({ apiVersion: 'v1', name: 'someone' }) });
  t.is(create.code, 1, describe(create));
  t.is(
    create.stderr,
    'The ConfigMap "bad-refs" is invalid: \n' +
      '* metadata.ownerReferences.kind: Invalid value: "": must not be empty\n' +
      '* metadata.ownerReferences.uid: Invalid value: "": must not be empty\n',
    describe(create),
  );
  const get = await kapi.kubectl(['-n', 'demo', 'get', 'configmap', 'bad-refs']);
  t.is(get.stderr, 'Error from server (NotFound): configmaps "bad-refs" not found\n', describe(get));

  await kubectlOk(['create', 'configmap', 'bad-refs', '--from-literal=k=v']);
  const noUid = JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'someone' }] } });
  const patch = await kapi.kubectl(['-n', 'demo', 'patch', 'configmap', 'bad-refs', '--type=merge', '-p', noUid]);
  t.is(patch.code, 1, describe(patch));
  t.is(patch.stderr, 'The ConfigMap "bad-refs" is invalid: metadata.ownerReferences.uid: Invalid value: "": must not be empty\n', describe(patch));
  t.is(await kubectlOk(['get', 'configmap', 'bad-refs', '-o', 'jsonpath={.metadata.ownerReferences}']), '', 'the stored ConfigMap is unchanged');
  await kubectlOk(['delete', 'configmap', 'bad-refs']);
});
