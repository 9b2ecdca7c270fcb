/**
 * Helpers for the Server-Side Apply and patch tests: apply requests, managedFields lookups, and the `gizmos` CRD
 * (group ssa.example.com) whose spec has a list-map (`ports`, keyed by name), a set (`tags`) and an atomic list (`args`).
 */
import YAML from 'yaml';
import type { TestResponse, TestServer } from './test-server.js';

export const applyPatchType = 'application/apply-patch+yaml';

export interface ApplyOptions {
  /** `fieldManager` query parameter; null leaves it out. Default 'mgr1'. */
  manager?: string | null;
  force?: boolean;
  dryRun?: boolean;
  headers?: Record<string, string>;
}

/** Query string of an apply (or other write) request. */
export function writeQuery(opts: { manager?: string | null; force?: boolean; dryRun?: boolean }): string {
  const q = new URLSearchParams();
  if (opts.manager !== null && opts.manager !== undefined) q.set('fieldManager', opts.manager);
  if (opts.force !== undefined) q.set('force', String(opts.force));
  if (opts.dryRun) q.set('dryRun', 'All');
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * PATCH `path` with Content-Type application/apply-patch+yaml. A string body is sent as is; an object is sent as
 * YAML (`asJson: true` sends it as JSON text instead, which is valid YAML too).
 */
export function apply(server: TestServer, path: string, body: unknown, opts: ApplyOptions & { asJson?: boolean } = {}): Promise<TestResponse> {
  const rawBody = typeof body === 'string' ? body : opts.asJson ? JSON.stringify(body) : YAML.stringify(body);
  return server.request('PATCH', `${path}${writeQuery({ manager: opts.manager === undefined ? 'mgr1' : opts.manager, force: opts.force, dryRun: opts.dryRun })}`, {
    rawBody,
    contentType: applyPatchType,
    headers: opts.headers,
  });
}

/** An apply configuration of a Widget: only the fields given. */
export function widgetConfig(name: string, spec?: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, ...(spec ? { spec } : {}), ...extra };
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: any;
  subresource?: string;
}

/** RFC 3339 timestamp with seconds precision, as kube writes managedFields times. */
export const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** The object's managedFields (an empty list when absent). */
export function managedFields(obj: any): ManagedFieldsEntry[] {
  return (obj?.metadata?.managedFields ?? []) as ManagedFieldsEntry[];
}

/** The managedFields entry of `manager` (and operation / subresource when given); undefined when there is none. */
export function entryOf(obj: any, manager: string, opts: { operation?: 'Apply' | 'Update'; subresource?: string } = {}): ManagedFieldsEntry | undefined {
  return managedFields(obj).find(
    (e) => e.manager === manager && (opts.operation === undefined || e.operation === opts.operation) && (opts.subresource ?? undefined) === (e.subresource ?? undefined),
  );
}

/** `manager:operation[:subresource]` of every entry, sorted: a compact picture of who manages the object. */
export function managerSummary(obj: any): string[] {
  return managedFields(obj)
    .map((e) => [e.manager, e.operation, ...(e.subresource ? [e.subresource] : [])].join(':'))
    .sort();
}

/** Whether an entry's fieldsV1 has the path (e.g. `owns(e, 'f:spec', 'f:color')`). */
export function owns(entry: ManagedFieldsEntry | undefined, ...path: string[]): boolean {
  let node = entry?.fieldsV1;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// The gizmos CRD

export const gizmoGroup = 'ssa.example.com';
export const gizmoApiVersion = `${gizmoGroup}/v1`;

/** gizmos.ssa.example.com: spec.size (integer), spec.ports (list-map keyed by name), spec.tags (set), spec.args (atomic). */
export function gizmosCrd(): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gizmos.${gizmoGroup}` },
    spec: {
      group: gizmoGroup,
      scope: 'Namespaced',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    size: { type: 'integer' },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: { name: { type: 'string' }, port: { type: 'integer' }, protocol: { type: 'string' } },
                      },
                    },
                    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                    args: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** /apis/ssa.example.com/v1/namespaces/NS/gizmos[/NAME] */
export function gizmosPath(namespace: string, name?: string): string {
  return `/apis/${gizmoGroup}/v1/namespaces/${namespace}/gizmos${name ? `/${name}` : ''}`;
}

/** An apply configuration (or full body) of a Gizmo. */
export function gizmoConfig(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: gizmoApiVersion, kind: 'Gizmo', metadata: { name }, spec };
}

/** Port names of a gizmo, sorted (SSA does not promise an order for items merged from several managers). */
export function portNames(obj: any): string[] {
  return ((obj?.spec?.ports ?? []) as { name: string }[]).map((p) => p.name).sort();
}

/** The fieldsV1 key of a list-map item keyed by name, e.g. `k:{"name":"a"}`. */
export function itemKey(name: string): string {
  return `k:${JSON.stringify({ name })}`;
}

/** The fieldsV1 key of a set item, e.g. `v:"x"`. */
export function setKey(value: string): string {
  return `v:${JSON.stringify(value)}`;
}
