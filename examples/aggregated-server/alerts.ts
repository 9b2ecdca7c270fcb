/**
 * `alerts.metrics.example.com`: a namespaced resource kept in its own SQLite file (one row per object, the object as
 * JSON; the database's user_version is the last resourceVersion handed out). kapi decodes, validates (the schema
 * below) and admits every write before the storage sees it. Alerts are created and deleted, never changed: a fuller
 * SQLite storage, with updates and conflicts, is examples/custom-storage/notes.ts.
 */
import Database from 'better-sqlite3';
import { errors, resourceModule, type KubeObject, type RestContext, type RestStorage } from '../../index.js';

const group = 'metrics.example.com';

/** The alerts' storage over one SQLite table in `file`. */
function sqliteAlerts(file: string): RestStorage {
  const db = new Database(file);
  db.exec('CREATE TABLE IF NOT EXISTS alerts (namespace TEXT NOT NULL, name TEXT NOT NULL, object TEXT NOT NULL, PRIMARY KEY (namespace, name))');
  const nextRevision = db.transaction(() => {
    const next = (db.pragma('user_version', { simple: true }) as number) + 1;
    db.pragma(`user_version = ${next}`);
    return next;
  });
  const one = db.prepare<[string, string], { object: string }>('SELECT object FROM alerts WHERE namespace = ? AND name = ?');
  const all = db.prepare<[], { object: string }>('SELECT object FROM alerts ORDER BY namespace, name');
  const inNamespace = db.prepare<[string], { object: string }>('SELECT object FROM alerts WHERE namespace = ? ORDER BY name');
  const insert = db.prepare('INSERT INTO alerts (namespace, name, object) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM alerts WHERE namespace = ? AND name = ?');

  const stored = (ctx: RestContext, name: string): KubeObject => {
    const found = one.get(ctx.namespace, name);
    if (!found) throw errors.notFound({ group, resource: 'alerts', name });
    return JSON.parse(found.object) as KubeObject;
  };

  return {
    async get(ctx, name) {
      return stored(ctx, name);
    },
    async list(ctx) {
      const rows = ctx.namespace ? inNamespace.all(ctx.namespace) : all.all();
      return { items: rows.map((r) => JSON.parse(r.object) as KubeObject), resourceVersion: String(db.pragma('user_version', { simple: true })) };
    },
    async create(ctx, obj) {
      const name = obj.metadata!.name!;
      if (one.get(ctx.namespace, name)) throw errors.alreadyExists({ group, resource: 'alerts', name });
      if (ctx.dryRun) return obj;
      const created = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(nextRevision()) } };
      insert.run(ctx.namespace, name, JSON.stringify(created));
      return created;
    },
    async delete(ctx, name, admit) {
      const old = stored(ctx, name);
      await admit(old);
      if (!ctx.dryRun) remove.run(ctx.namespace, name);
      return old;
    },
  };
}

/** The alerts, kept in the SQLite file `file`. */
export function alertsResource(file: string) {
  return resourceModule({
    group,
    versions: ['v1'],
    kind: 'Alert',
    plural: 'alerts',
    scope: 'Namespaced',
    schema: {
      type: 'object',
      description: 'A threshold on a node metric, kept in SQLite.',
      properties: {
        spec: {
          type: 'object',
          required: ['metric', 'above'],
          properties: {
            metric: { type: 'string', enum: ['cpu', 'memory'], description: 'The usage watched: cpu or memory.' },
            above: { type: 'string', description: 'The quantity the usage must stay under, e.g. 1500m or 4Gi.' },
          },
        },
      },
    },
    printerColumns: [
      { name: 'Metric', type: 'string', jsonPath: '.spec.metric' },
      { name: 'Above', type: 'string', jsonPath: '.spec.above' },
    ],
    storage: sqliteAlerts(file),
  });
}
