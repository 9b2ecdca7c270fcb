/**
 * `notes.example.com`: a namespaced resource kept in its own SQLite table (one row per object, the object as JSON, a
 * revision counter for resourceVersion). kapi decodes, validates (the schema below) and admits every write before the
 * storage sees it; the storage only stores, and refuses a write over a state that changed meanwhile (409).
 */
import Database from 'better-sqlite3';
import { errors, resourceModule, type KubeObject, type RestContext, type RestStorage } from '../../index.js';

interface Row {
  object: string;
  revision: number;
}

/** The notes' storage over one SQLite table; the database's user_version is the last revision handed out. */
export function sqliteNotes(file: string): RestStorage {
  const db = new Database(file);
  db.exec('CREATE TABLE IF NOT EXISTS notes (namespace TEXT NOT NULL, name TEXT NOT NULL, revision INTEGER NOT NULL, object TEXT NOT NULL, PRIMARY KEY (namespace, name))');
  const nextRevision = db.transaction(() => {
    const next = (db.pragma('user_version', { simple: true }) as number) + 1;
    db.pragma(`user_version = ${next}`);
    return next;
  });
  const row = db.prepare<[string, string], Row>('SELECT object, revision FROM notes WHERE namespace = ? AND name = ?');
  const all = db.prepare<[], Row>('SELECT object, revision FROM notes ORDER BY namespace, name');
  const inNamespace = db.prepare<[string], Row>('SELECT object, revision FROM notes WHERE namespace = ? ORDER BY name');
  const insert = db.prepare('INSERT INTO notes (namespace, name, revision, object) VALUES (?, ?, ?, ?)');
  const replace = db.prepare('UPDATE notes SET revision = ?, object = ? WHERE namespace = ? AND name = ? AND revision = ?');
  const remove = db.prepare('DELETE FROM notes WHERE namespace = ? AND name = ? AND revision = ?');

  const notFound = (name: string) => errors.notFound({ group: 'example.com', resource: 'notes', name });
  const modified = (name: string) => errors.modified({ group: 'example.com', resource: 'notes', name });
  const stored = (ctx: RestContext, name: string): KubeObject => {
    const found = row.get(ctx.namespace, name);
    if (!found) throw notFound(name);
    return JSON.parse(found.object) as KubeObject;
  };
  const withRevision = (obj: KubeObject, revision: number): KubeObject => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } });

  return {
    async get(ctx, name) {
      return stored(ctx, name);
    },
    async list(ctx) {
      const rows = ctx.namespace ? inNamespace.all(ctx.namespace) : all.all();
      const revision = db.pragma('user_version', { simple: true }) as number;
      return { items: rows.map((r) => JSON.parse(r.object) as KubeObject), resourceVersion: String(revision) };
    },
    async create(ctx, obj) {
      const name = obj.metadata!.name!;
      if (row.get(ctx.namespace, name)) throw errors.alreadyExists({ group: 'example.com', resource: 'notes', name });
      if (ctx.dryRun) return obj;
      const created = withRevision(obj, nextRevision());
      insert.run(ctx.namespace, name, Number(created.metadata!.resourceVersion), JSON.stringify(created));
      return created;
    },
    async update(ctx, name, update) {
      const old = stored(ctx, name);
      const next = await update(old);
      if (ctx.dryRun) return next;
      const updated = withRevision(next, nextRevision());
      // Only over the revision `update` saw: a write in between makes this one a conflict.
      const changes = replace.run(Number(updated.metadata!.resourceVersion), JSON.stringify(updated), ctx.namespace, name, Number(old.metadata!.resourceVersion)).changes;
      if (changes === 0) throw modified(name);
      return updated;
    },
    async delete(ctx, name, admit) {
      const old = stored(ctx, name);
      await admit(old);
      if (ctx.dryRun) return old;
      if (remove.run(ctx.namespace, name, Number(old.metadata!.resourceVersion)).changes === 0) throw modified(name);
      return old;
    },
  };
}

/** `notes/<name>/summary`: counts of the note's text, a kind of its own. */
function summaryOf(notes: RestStorage): RestStorage {
  return {
    kind: { group: 'example.com', version: 'v1', kind: 'NoteSummary' },
    schema: {
      type: 'object',
      description: "Counts of a note's text.",
      properties: {
        words: { type: 'integer', description: 'Words in spec.text.' },
        characters: { type: 'integer', description: 'Characters in spec.text.' },
      },
    },
    async get(ctx, name) {
      const note = await notes.get!(ctx, name);
      const text = String((note.spec as { text?: string } | undefined)?.text ?? '');
      return {
        apiVersion: 'example.com/v1',
        kind: 'NoteSummary',
        metadata: { name, namespace: ctx.namespace },
        words: text.split(/\s+/).filter(Boolean).length,
        characters: [...text].length,
      };
    },
  };
}

export function notes(file: string) {
  const storage = sqliteNotes(file);
  return resourceModule({
    group: 'example.com',
    versions: ['v1'],
    kind: 'Note',
    plural: 'notes',
    scope: 'Namespaced',
    schema: {
      type: 'object',
      description: 'A note, kept in SQLite.',
      properties: {
        spec: {
          type: 'object',
          required: ['title'],
          properties: {
            title: { type: 'string', maxLength: 80, description: 'What the note is about.' },
            text: { type: 'string', description: 'The note itself.' },
            priority: { type: 'integer', minimum: 0, maximum: 5, default: 0, description: '0 (default) to 5.' },
          },
        },
      },
    },
    printerColumns: [
      { name: 'Title', type: 'string', jsonPath: '.spec.title' },
      { name: 'Priority', type: 'integer', jsonPath: '.spec.priority' },
    ],
    storage,
    subresources: { summary: summaryOf(storage) },
  });
}
