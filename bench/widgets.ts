/**
 * The workload's resources: the example widgets CRD, the widget every GET reads (in the core group, a realistic one
 * created as `kubectl apply` creates it), and the bodies POSTed by the create benchmark.
 */
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { expectStatus, type HttpsClient } from './https-client.js';
import type { LoadSpec } from './load.js';
import { waitForServed } from './served.js';

export const widgetsGroupVersionPath = '/apis/example.com/v1';
export const widgetsCollectionPath = `${widgetsGroupVersionPath}/namespaces/default/widgets`;
export const widgetPath = `${widgetsCollectionPath}/w1`;

const crdFile = new URL('../../examples/crd-only/widgets-crd.yaml', import.meta.url);

/** A Widget body as the create benchmark POSTs it; `spec` matches what `w1` holds. */
export function widget(name: string): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'default' }, spec: { color: 'blue', replicas: 3 } };
}

/** The core group's create load: POSTs of widgets with unique names (`bench-<phase>-<seq>`); 201s count. */
export function widgetCreateLoad(title: string, url: string, token: string): LoadSpec {
  return {
    title,
    url,
    okStatus: 201,
    method: 'POST',
    path: widgetsCollectionPath,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: (phase, seq) => JSON.stringify(widget(`bench-${phase}-${seq}`)),
  };
}

/** POSTs the widgets CRD, changed by `adapt` if given (409 AlreadyExists is fine on a re-used data dir). */
export async function installWidgetsCrd(client: HttpsClient, adapt: (crd: Record<string, unknown>) => Record<string, unknown> = (crd) => crd): Promise<void> {
  const crd = adapt(YAML.parse(await readFile(crdFile, 'utf8')) as Record<string, unknown>);
  const res = await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  expectStatus(res, [201, 409], 'create CRD widgets.example.com');
}

/** Polls discovery until `/apis/example.com/v1` lists `widgets` (the CRD is served). */
export function waitForWidgetsServed(client: HttpsClient, timeoutMs = 30_000): Promise<void> {
  return waitForServed(client, widgetsGroupVersionPath, ['widgets'], timeoutMs);
}

/** Creates widget `w1` in `default` (409 is fine on a re-used data dir). */
export async function createWidgetW1(client: HttpsClient): Promise<void> {
  const res = await client.request('POST', widgetsCollectionPath, widget('w1'));
  expectStatus(res, [201, 409], 'create widget w1');
}

/** The manifest a user applies for w1 in the core group: a few labels and the spec. Keys sorted, as kubectl's encoder writes them (Go maps). */
export const w1Manifest = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { labels: { 'app.kubernetes.io/name': 'widget', 'app.kubernetes.io/part-of': 'bench' }, name: 'w1', namespace: 'default' },
  spec: { color: 'blue', replicas: 3 },
};

/**
 * Creates w1 as `kubectl apply -f` does when the object does not exist yet (kubectl v1.32, seen in its -v=8 log): a
 * POST with `fieldManager=kubectl-client-side-apply&fieldValidation=Strict` of the manifest plus the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation, which holds the manifest's JSON as kubectl encodes it
 * (keys sorted, metadata keeping an empty `annotations`, a trailing newline). The server adds the managedFields entry
 * of that manager (operation Update); GET of w1 then answers ~1 KiB. 409 is fine on a re-used data dir.
 */
export async function applyWidgetW1(client: HttpsClient): Promise<void> {
  const lastApplied = JSON.stringify({ ...w1Manifest, metadata: { annotations: {}, ...w1Manifest.metadata } }) + '\n';
  const body = { ...w1Manifest, metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied }, ...w1Manifest.metadata } };
  const res = await client.request('POST', `${widgetsCollectionPath}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`, body);
  expectStatus(res, [201, 409], 'apply widget w1');
}

/** The exact bytes and Content-Type kapi answers for GET of `w1`, which the baseline then serves. */
export async function fetchWidgetW1(client: HttpsClient): Promise<{ body: string; contentType: string }> {
  const res = await client.request('GET', widgetPath);
  expectStatus(res, [200], 'get widget w1');
  return { body: res.body.toString('utf8'), contentType: String(res.headers['content-type'] ?? 'application/json') };
}
