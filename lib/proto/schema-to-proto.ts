/*
 * A CRD version's structural schema -> the messages of its .proto:
 *   <Kind>      metadata = ObjectMeta, then spec, status and the other top-level properties (apiVersion and kind
 *               travel in the protobuf envelope, not in the message);
 *   <ListKind>  metadata = ListMeta (1), repeated <Kind> items (2);
 *   string -> string, integer -> int64, number -> double, boolean -> bool, object with properties -> a message
 *   named after its path, additionalProperties -> map<string, X>, array -> repeated X (a list or map inside a list or
 *   map is wrapped in a one-field message), x-kubernetes-int-or-string -> IntOrString, and what the schema leaves
 *   open (x-kubernetes-preserve-unknown-fields, x-kubernetes-embedded-resource, no type) -> bytes holding JSON.
 * Every field is proto2 `optional`, so a zero value that was set is told apart from an absent one.
 */
import type { JSONSchemaProps } from '../openapi/json-schema-props.js';
import { nextFieldNumber, type MessageNumbers, type VersionNumbers } from './field-numbers.js';
import { ProtoGenError } from './proto-gen-error.js';
import type { ListShape, MapShape, ProtoField, ProtoFile, ProtoMessage, Shape } from './proto-model.js';
import {
  fieldIdentifier,
  isIdentifier,
  itemsPath,
  messageIdentifier,
  pascalCase,
  propertyPath,
  protoPackage,
  rootPath,
  valuesPath,
} from './proto-names.js';

/** One CRD version to describe. */
export interface ProtoSource {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  /** The version's openAPIV3Schema. */
  schema: JSONSchemaProps | undefined;
  /** Named in the file's header comment, e.g. `CustomResourceDefinition widgets.example.com`. */
  source?: string;
}

export interface NumberingOptions {
  /**
   * Give properties without a recorded number the next free number of their message (`kapi gen proto`). Without
   * it, a property without a number is an error (the server serves only what the annotation fully describes).
   */
  assign: boolean;
}

/** A field number given by this run. */
export interface AddedNumber {
  path: string;
  field: string;
  number: number;
}

export interface ProtoDescription {
  file: ProtoFile;
  /** The version's numbers after this run: the recorded ones plus those given to new properties. */
  numbers: VersionNumbers;
  added: AddedNumber[];
}

/** Top-level properties kapi numbers first, in this order, so a new CRD gets kube's metadata = 1, spec = 2, status = 3. */
const leadingRootProperties = ['metadata', 'spec', 'status'];
/** Top-level properties the protobuf envelope carries instead of the message. */
const envelopeProperties = new Set(['apiVersion', 'kind']);

interface MessageDraft {
  path: string;
  nameHint: string;
  schema: JSONSchemaProps;
  /** Filled once every message of the file is known. */
  name: string;
  /** Message shapes pointing at this draft, given its name when known. */
  refs: { message: string }[];
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Describes one CRD version in protobuf. `recorded` are the version's numbers from the CRD's annotation. Throws
 * ProtoGenError for a schema protobuf cannot carry faithfully, or (without `assign`) a property without a number.
 */
export function describeVersion(src: ProtoSource, recorded: VersionNumbers | undefined, opts: NumberingOptions): ProtoDescription {
  const root = src.schema;
  const where = `version ${src.version}`;
  if (!root) throw new ProtoGenError(`${where} has no schema`);
  if (root.type !== 'object') throw new ProtoGenError(`${where}: the schema's root must be of type object`);
  if (root['x-kubernetes-preserve-unknown-fields']) {
    throw new ProtoGenError(`${where}: the schema's root preserves unknown fields, which a protobuf message cannot carry`);
  }
  const kindName = messageIdentifier(src.kind);
  const listName = messageIdentifier(src.listKind);
  const drafts: MessageDraft[] = [];
  const wrappers: { draft: MessageDraft; inner: ListShape | MapShape }[] = [];

  /** The message for `path` (drafted on first use); `shape` is given the message's name once every name is known. */
  const draftFor = <T extends { message: string }>(path: string, nameHint: string, schema: JSONSchemaProps, shape: T): T => {
    let draft = drafts.find((d) => d.path === path);
    if (!draft) {
      draft = { path, nameHint, schema, name: '', refs: [] };
      drafts.push(draft);
    }
    draft.refs.push(shape);
    return shape;
  };

  const shapeOf = (schema: JSONSchemaProps | undefined, path: string, nameHint: string): Shape => {
    if (!schema || schema['x-kubernetes-embedded-resource']) return { kind: 'json' };
    const type = schema.type;
    if ((type === 'object' || type === undefined) && schema['x-kubernetes-preserve-unknown-fields']) return { kind: 'json' };
    if (schema['x-kubernetes-int-or-string']) return { kind: 'intOrString' };
    switch (type) {
      case 'string':
        return { kind: 'string' };
      case 'integer':
        return { kind: 'int64' };
      case 'number':
        return { kind: 'double' };
      case 'boolean':
        return { kind: 'bool' };
      case 'array':
        return schema.items ? { kind: 'list', item: elementShape(schema.items, itemsPath(path), `${nameHint}Item`) } : { kind: 'json' };
      case 'object': {
        const additional = schema.additionalProperties;
        if (!schema.properties && additional && typeof additional === 'object') {
          return { kind: 'map', value: elementShape(additional, valuesPath(path), `${nameHint}Value`) };
        }
        if (!schema.properties && additional === true) return { kind: 'map', value: { kind: 'json' } };
        return draftFor(path, nameHint, schema, { kind: 'message' as const, message: '' });
      }
      default:
        return { kind: 'json' };
    }
  };

  /** A list's item or a map's value: a nested list or map goes into a wrapper message. */
  const elementShape = (schema: JSONSchemaProps, path: string, nameHint: string): Shape => {
    const shape = shapeOf(schema, path, nameHint);
    if (shape.kind !== 'list' && shape.kind !== 'map') return shape;
    const wrapper = draftFor(path, nameHint, schema, { kind: 'wrapper' as const, message: '', inner: shape });
    wrappers.push({ draft: drafts.find((d) => d.path === path)!, inner: shape });
    return wrapper;
  };

  // Walk the schema (breadth first, so every object message is drafted before it is described).
  const rootDraft: MessageDraft = { path: rootPath, nameHint: kindName, schema: root, name: kindName, refs: [] };
  drafts.push(rootDraft);
  const numbers: VersionNumbers = new Map([...(recorded ?? new Map<string, MessageNumbers>())].map(([p, m]) => [p, new Map(m)]));
  const added: AddedNumber[] = [];
  const bodies = new Map<MessageDraft, { fields: Omit<ProtoField, 'name'>[]; removed: [string, number][] }>();
  for (let i = 0; i < drafts.length; i++) {
    const draft = drafts[i];
    if (wrappers.some((w) => w.draft === draft)) continue;
    bodies.set(draft, describeFields(draft, draft === rootDraft));
  }

  function describeFields(draft: MessageDraft, isRoot: boolean) {
    const properties = draft.schema.properties ?? {};
    let names = Object.keys(properties).sort(byteOrder);
    if (isRoot) {
      names = names.filter((n) => !envelopeProperties.has(n) && !leadingRootProperties.includes(n));
      names = [...leadingRootProperties.filter((n) => n === 'metadata' || n in properties), ...names];
    }
    let own = numbers.get(draft.path);
    if (!own) {
      own = new Map();
      if (names.length) numbers.set(draft.path, own);
    }
    const fields: Omit<ProtoField, 'name'>[] = [];
    for (const jsonName of names) {
      let number = own.get(jsonName);
      if (number === undefined) {
        if (!opts.assign) throw new ProtoGenError(`${where}: field ${JSON.stringify(jsonName)} of ${draft.path} has no field number`);
        number = nextFieldNumber(Math.max(0, ...own.values()));
        own.set(jsonName, number);
        added.push({ path: draft.path, field: jsonName, number });
      }
      const schema = properties[jsonName];
      const shape: Shape =
        isRoot && jsonName === 'metadata' ? { kind: 'objectMeta' } : shapeOf(schema, propertyPath(draft.path, jsonName), `${draft.nameHint}${pascalCase(jsonName)}`);
      fields.push({ jsonName, number, shape, ...(schema?.description ? { description: schema.description } : {}) });
    }
    const current = new Set(names);
    const removed = [...own].filter(([f]) => !current.has(f)).sort((a, b) => a[1] - b[1]);
    return { fields: fields.sort((a, b) => a.number - b.number), removed };
  }

  nameMessages(drafts, rootDraft, [kindName, listName]);

  const messages: ProtoMessage[] = [];
  for (const draft of drafts) {
    const wrapper = wrappers.find((w) => w.draft === draft);
    if (wrapper) {
      messages.push({ name: draft.name, role: 'wrapper', path: draft.path, fields: [{ name: 'items', jsonName: 'items', number: 1, shape: wrapper.inner }], reserved: [] });
      continue;
    }
    const body = bodies.get(draft)!;
    messages.push(messageOf(draft, draft === rootDraft ? 'resource' : 'object', body.fields, body.removed));
  }
  const listMessage: ProtoMessage = {
    name: listName,
    role: 'list',
    path: '',
    fields: [
      { name: 'metadata', jsonName: 'metadata', number: 1, shape: { kind: 'listMeta' } },
      { name: 'items', jsonName: 'items', number: 2, shape: { kind: 'list', item: { kind: 'message', message: kindName } } },
    ],
    reserved: [],
  };
  messages.splice(1, 0, listMessage);
  return {
    file: {
      package: protoPackage(src.group, src.version),
      group: src.group,
      version: src.version,
      kind: kindName,
      listKind: listName,
      messages,
      ...(src.source ? { source: src.source } : {}),
    },
    numbers,
    added,
  };
}

/**
 * Message names: the kind's for the root, otherwise the parent's name + the property in PascalCase (`Item` for a
 * list's items, `Value` for a map's values). Names that would repeat get 2, 3, … in path order.
 */
function nameMessages(drafts: MessageDraft[], rootDraft: MessageDraft, taken: string[]): void {
  const used = new Set(taken);
  for (const draft of [...drafts].filter((d) => d !== rootDraft).sort((a, b) => byteOrder(a.path, b.path))) {
    let name = draft.nameHint;
    for (let n = 2; used.has(name); n++) name = `${draft.nameHint}${n}`;
    used.add(name);
    draft.name = name;
  }
  for (const draft of drafts) for (const ref of draft.refs) ref.message = draft.name;
}

/** Field names: identifiers made from the JSON names; one that would repeat gets `_<number>` (fields are in number order). */
function messageOf(draft: MessageDraft, role: 'resource' | 'object', fields: Omit<ProtoField, 'name'>[], removed: [string, number][]): ProtoMessage {
  const used = new Set<string>();
  const named: ProtoField[] = fields.map((f) => {
    let name = fieldIdentifier(f.jsonName);
    if (used.has(name)) name = `${name}_${f.number}`;
    while (used.has(name)) name = `${name}_`;
    used.add(name);
    return { name, ...f };
  });
  const reserved = removed.map(([jsonName, number]) => {
    const name = fieldIdentifier(jsonName);
    return used.has(name) || !isIdentifier(name) ? { number } : { number, name };
  });
  // A nested object's description is its field's comment already; only the resource's own is the message's.
  const description = role === 'resource' ? draft.schema.description : undefined;
  return { name: draft.name, role, path: draft.path, fields: named, reserved, ...(description ? { description } : {}) };
}
