import type { ServerModel } from './server-model.js';

/** src/crds.ts: what the server serves of each kind, read from the CRDs `npm run build` generates from src/types.ts. */
export function renderCrds(m: ServerModel): string {
  return `/**
 * What the server serves of each kind — names, scope, schema, printer columns, status subresource — read from the
 * CustomResourceDefinitions \`npm run build\` generates from src/types.ts into crds/, so that types.ts is the one
 * description of the kinds.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { JSONSchemaProps, PrinterColumn, Scope } from 'kapi';

interface Crd {
  spec: {
    names: { kind: string; plural: string; singular?: string; shortNames?: string[]; categories?: string[] };
    scope: Scope;
    versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps }; additionalPrinterColumns?: PrinterColumn[]; subresources?: { status?: object } }[];
  };
}

export const group = '${m.group}';
export const version = '${m.version}';

/** The resourceModule options of the resource \`plural\` but its storage, from crds/<group>_<plural>.yaml. */
export function crdResource(plural: string) {
  const file = new URL('../../crds/' + group + '_' + plural + '.yaml', import.meta.url);
  const { names, scope, versions } = (parse(readFileSync(file, 'utf8')) as Crd).spec;
  const served = versions.find((v) => v.name === version);
  if (!served) throw new Error(file.pathname + ': no version ' + version);
  return {
    group,
    versions: [version],
    ...names,
    scope,
    schema: served.schema.openAPIV3Schema,
    ...(served.additionalPrinterColumns ? { printerColumns: served.additionalPrinterColumns } : {}),
    // +kubebuilder:subresource:status: /status writes the status, writes of the object keep it
    ...(served.subresources?.status ? { statusSubresource: true } : {}),
  };
}
`;
}

/** src/sqlite-storage.ts: a RestStorage over one SQLite table, shared by the kinds. */
export function renderSqliteStorage(): string {
  return `/**
 * The objects of every kind, in one SQLite table: a row per object (the object as JSON, the revision it was last
 * written at). The database's user_version is the last revision handed out, and an object's resourceVersion is its
 * revision. kapi decodes, defaults, validates (the CRD's schema) and admits every write before the storage sees it,
 * and keeps the status apart (the status subresource); the storage stores, refuses a write over a state that changed
 * meanwhile (409 Conflict), and tells the resource's watches what it stored (src/resource-events.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { errors, type KubeObject, type RestContext, type RestStorage } from 'kapi';
import { ResourceEvents } from './resource-events.js';

interface Row {
  object: string;
  revision: number;
}

/** Opens (creating when needed) the database file \`file\`. */
export function openDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS objects (resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, revision INTEGER NOT NULL, object TEXT NOT NULL, PRIMARY KEY (resource, namespace, name))',
  );
  return db;
}

/** How many objects of each resource the database holds. */
export function countObjects(db: Database.Database): Record<string, number> {
  const rows = db.prepare<[], { resource: string; count: number }>('SELECT resource, COUNT(*) AS count FROM objects GROUP BY resource ORDER BY resource').all();
  return Object.fromEntries(rows.map((r) => [r.resource, r.count]));
}

/** The storage of the namespaced resource \`resource\` of \`group\`, with get, list, watch, create, update and delete. */
export function sqliteStorage(db: Database.Database, group: string, resource: string): RestStorage {
  const revisionNow = () => db.pragma('user_version', { simple: true }) as number;
  const row = db.prepare<[string, string, string], Row>('SELECT object, revision FROM objects WHERE resource = ? AND namespace = ? AND name = ?');
  const all = db.prepare<[string], Row>('SELECT object, revision FROM objects WHERE resource = ? ORDER BY namespace, name');
  const inNamespace = db.prepare<[string, string], Row>('SELECT object, revision FROM objects WHERE resource = ? AND namespace = ? ORDER BY name');
  const insert = db.prepare('INSERT INTO objects (resource, namespace, name, revision, object) VALUES (?, ?, ?, ?, ?)');
  const replace = db.prepare('UPDATE objects SET revision = ?, object = ? WHERE resource = ? AND namespace = ? AND name = ? AND revision = ?');
  const remove = db.prepare('DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ? AND revision = ?');
  // Complete from now: a watch from a revision written before this process started is told to list again (410).
  const events = new ResourceEvents(revisionNow());

  const qualified = (name: string) => ({ group, resource, name });
  const stored = (ctx: RestContext, name: string): KubeObject => {
    const found = row.get(resource, ctx.namespace, name);
    if (!found) throw errors.notFound(qualified(name));
    return JSON.parse(found.object) as KubeObject;
  };
  const revisionOf = (obj: KubeObject) => Number(obj.metadata!.resourceVersion);
  /**
   * \`object\` at the next revision, written by \`write\` in the transaction that takes the revision; a write that
   * changes no row (the object changed meanwhile) takes none: undefined.
   */
  const commit = db.transaction((object: KubeObject, write: (next: KubeObject) => Database.RunResult): KubeObject | undefined => {
    const next = { ...object, metadata: { ...object.metadata, resourceVersion: String(revisionNow() + 1) } };
    if (write(next).changes === 0) return undefined;
    db.pragma('user_version = ' + revisionOf(next));
    return next;
  });

  return {
    async get(ctx, name) {
      return stored(ctx, name);
    },
    // Selectors are left to kapi, for lists and watches.
    async list(ctx) {
      const rows = ctx.namespace ? inNamespace.all(resource, ctx.namespace) : all.all(resource);
      return { items: rows.map((r) => JSON.parse(r.object) as KubeObject), resourceVersion: String(revisionNow()) };
    },
    watch(ctx, options) {
      // No resourceVersion or "0": from now (kapi sends the listed objects first, then watches from the list's).
      const rv = options.resourceVersion;
      return events.watch(ctx, rv === '' || rv === '0' ? revisionNow() : Number(rv));
    },
    async create(ctx, obj) {
      const name = obj.metadata!.name!;
      if (row.get(resource, ctx.namespace, name)) throw errors.alreadyExists(qualified(name));
      if (ctx.dryRun) return obj;
      const created = commit(obj, (next) => insert.run(resource, ctx.namespace, name, revisionOf(next), JSON.stringify(next)))!;
      events.publish('ADDED', created);
      return created;
    },
    async update(ctx, name, update) {
      // Only over the revision \`update\` saw. A write in between (while admission ran) makes it try again on the new
      // one, as kube's storage does; a request that named a resourceVersion then gets its 409 from \`update\`.
      for (;;) {
        const old = stored(ctx, name);
        const next = await update(old);
        // As kube's storage: a write that changes nothing keeps the object as it is (no new revision, no event).
        if (ctx.dryRun || isDeepStrictEqual(next, old)) return next;
        const updated = commit(next, (n) => replace.run(revisionOf(n), JSON.stringify(n), resource, ctx.namespace, name, revisionOf(old)));
        if (!updated) continue;
        events.publish('MODIFIED', updated);
        return updated;
      }
    },
    async delete(ctx, name, admit) {
      for (;;) {
        const old = stored(ctx, name);
        await admit(old);
        if (ctx.dryRun) return old;
        // As kube answers a delete (and watches see it): the last state, at the delete's revision.
        const deleted = commit(old, () => remove.run(resource, ctx.namespace, name, revisionOf(old)));
        if (!deleted) continue; // changed while admission ran: admitted again as it is now
        events.publish('DELETED', deleted);
        return deleted;
      }
    },
  };
}
`;
}

/** src/resource-events.ts: a resource's changes, fanned out to its watches, the most recent kept for resuming. */
export function renderResourceEvents(): string {
  return `/**
 * The changes of one resource, handed in this process to each of its watches. The last \`capacity\` changes are kept,
 * so that a watch from a resourceVersion (a client resuming after a cut) gets every change after it, without a gap;
 * a watch from before that is ended with kube's 410 Gone "too old resource version", and the client lists again. As
 * in kube, a watch from a resourceVersion not reached yet waits for the changes after it.
 */
import { errors, type KubeObject, type RestContext, type RestWatchEvent } from 'kapi';

type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

interface Change {
  type: ChangeType;
  object: KubeObject;
  revision: number;
}

export class ResourceEvents {
  /** The most recent changes, oldest first. */
  private readonly history: Change[] = [];
  private readonly watches = new Set<(change: Change) => void>();

  constructor(
    /** Every change after this revision is in the history. */
    private complete: number,
    private readonly capacity = 1000,
  ) {}

  /** A change just stored; \`object\` as stored, at its new resourceVersion. */
  publish(type: ChangeType, object: KubeObject): void {
    const change = { type, object, revision: Number(object.metadata!.resourceVersion) };
    this.history.push(change);
    if (this.history.length > this.capacity) this.complete = this.history.shift()!.revision;
    for (const watch of this.watches) watch(change);
  }

  /**
   * The changes after revision \`after\` in the namespace of \`ctx\` (all namespaces for ''), in order, until
   * \`ctx.signal\` aborts. The selectors are kapi's to apply.
   */
  async *watch(ctx: RestContext, after: number): AsyncGenerator<RestWatchEvent> {
    if (after < this.complete) throw errors.expired('too old resource version: ' + after + ' (' + this.complete + ')');
    const wanted = (c: Change) => c.revision > after && (!ctx.namespace || c.object.metadata?.namespace === ctx.namespace);
    const pending = this.history.filter(wanted);
    let wake = () => {};
    const watch = (c: Change) => {
      if (!wanted(c)) return;
      pending.push(c);
      wake();
    };
    const abort = () => wake();
    this.watches.add(watch);
    ctx.signal.addEventListener('abort', abort);
    try {
      while (!ctx.signal.aborted) {
        const next = pending.shift();
        if (next) yield { type: next.type, object: next.object };
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      this.watches.delete(watch);
      ctx.signal.removeEventListener('abort', abort);
    }
  }
}
`;
}

/** src/server-info.ts: the computed, read-only example resource. */
export function renderServerInfo(m: ServerModel): string {
  const { kind, plural } = m.info;
  return `/**
 * \`${plural}.${m.group}\`: a read-only resource computed when read — nothing is stored. Its one object, "server",
 * is this server's start time, uptime and the objects it keeps, by resource.
 */
import type Database from 'better-sqlite3';
import { errors, type KubeObject, type RestStorage } from 'kapi';
import { group, version } from './crds.js';
import { countObjects } from './sqlite-storage.js';
import type { ${kind} } from './types.js';

const started = new Date();
const startTime = started.toISOString().replace(/\\.\\d+Z$/, 'Z');

function serverInfo(db: Database.Database): KubeObject & ${kind} {
  const now = Date.now();
  return {
    apiVersion: group + '/' + version,
    kind: '${kind}',
    // every read is a new computation: its resourceVersion is the time it was made
    metadata: { name: 'server', creationTimestamp: startTime, resourceVersion: String(now) },
    status: { startTime, uptimeSeconds: Math.floor((now - started.getTime()) / 1000), objects: countObjects(db) },
  };
}

/** get and list only: the resource's verbs are what its storage implements. Selectors are left to kapi. */
export function serverInfoStorage(db: Database.Database): RestStorage<KubeObject & ${kind}> {
  return {
    async get(_ctx, name) {
      if (name !== 'server') throw errors.notFound({ group, resource: '${plural}', name });
      return serverInfo(db);
    },
    async list() {
      const info = serverInfo(db);
      return { items: [info], resourceVersion: info.metadata!.resourceVersion };
    },
  };
}
`;
}
