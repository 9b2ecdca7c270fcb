import type { ServerModel } from './server-model.js';

/** src/crds.ts: what the server serves of each kind, read from the CRDs `npm run build` generates from src/types.ts. */
export function renderCrds(m: ServerModel): string {
  return `/**
 * What the server serves of each kind — names, scope, schema, printer columns — read from the
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
    versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps }; additionalPrinterColumns?: PrinterColumn[] }[];
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
  };
}
`;
}

/** src/sqlite-storage.ts: a RestStorage over one SQLite table, shared by the kinds. */
export function renderSqliteStorage(): string {
  return `/**
 * The objects of every kind, in one SQLite table: a row per object (the object as JSON, the revision it was last
 * written at). The database's user_version is the last revision handed out, and an object's resourceVersion is its
 * revision. kapi decodes, defaults, validates (the CRD's schema) and admits every write before the storage sees it;
 * the storage stores, and refuses a write over a state that changed meanwhile (409 Conflict).
 */
import Database from 'better-sqlite3';
import { errors, type KubeObject, type RestContext, type RestStorage } from 'kapi';

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

/** The storage of the namespaced resource \`resource\` of \`group\`. */
export function sqliteStorage(db: Database.Database, group: string, resource: string): RestStorage {
  const nextRevision = db.transaction(() => {
    const next = (db.pragma('user_version', { simple: true }) as number) + 1;
    db.pragma('user_version = ' + next);
    return next;
  });
  const row = db.prepare<[string, string, string], Row>('SELECT object, revision FROM objects WHERE resource = ? AND namespace = ? AND name = ?');
  const all = db.prepare<[string], Row>('SELECT object, revision FROM objects WHERE resource = ? ORDER BY namespace, name');
  const inNamespace = db.prepare<[string, string], Row>('SELECT object, revision FROM objects WHERE resource = ? AND namespace = ? ORDER BY name');
  const insert = db.prepare('INSERT INTO objects (resource, namespace, name, revision, object) VALUES (?, ?, ?, ?, ?)');
  const replace = db.prepare('UPDATE objects SET revision = ?, object = ? WHERE resource = ? AND namespace = ? AND name = ? AND revision = ?');
  const remove = db.prepare('DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ? AND revision = ?');

  const qualified = (name: string) => ({ group, resource, name });
  const stored = (ctx: RestContext, name: string): KubeObject => {
    const found = row.get(resource, ctx.namespace ?? '', name);
    if (!found) throw errors.notFound(qualified(name));
    return JSON.parse(found.object) as KubeObject;
  };
  const withRevision = (obj: KubeObject, revision: number): KubeObject => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } });

  return {
    async get(ctx, name) {
      return stored(ctx, name);
    },
    async list(ctx) {
      const rows = ctx.namespace ? inNamespace.all(resource, ctx.namespace) : all.all(resource);
      const revision = db.pragma('user_version', { simple: true }) as number;
      return { items: rows.map((r) => JSON.parse(r.object) as KubeObject), resourceVersion: String(revision) };
    },
    async create(ctx, obj) {
      const name = obj.metadata!.name!;
      if (row.get(resource, ctx.namespace ?? '', name)) throw errors.alreadyExists(qualified(name));
      if (ctx.dryRun) return obj;
      const created = withRevision(obj, nextRevision());
      insert.run(resource, ctx.namespace ?? '', name, Number(created.metadata!.resourceVersion), JSON.stringify(created));
      return created;
    },
    async update(ctx, name, update) {
      const old = stored(ctx, name);
      const next = await update(old);
      if (ctx.dryRun) return next;
      const updated = withRevision(next, nextRevision());
      // Only over the revision \`update\` saw: a write in between makes this one a conflict.
      const { changes } = replace.run(Number(updated.metadata!.resourceVersion), JSON.stringify(updated), resource, ctx.namespace ?? '', name, Number(old.metadata!.resourceVersion));
      if (changes === 0) throw errors.modified(qualified(name));
      return updated;
    },
    async delete(ctx, name, admit) {
      const old = stored(ctx, name);
      await admit(old);
      if (ctx.dryRun) return old;
      if (remove.run(resource, ctx.namespace ?? '', name, Number(old.metadata!.resourceVersion)).changes === 0) throw errors.modified(qualified(name));
      return old;
    },
  };
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
