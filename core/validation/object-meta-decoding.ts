/**
 * ObjectMeta decoded as Go's encoding/json decodes it into metav1.ObjectMeta: every field kube knows must have its Go
 * type, else the decode fails with Go's error for the first mismatch in document order (`json: cannot unmarshal
 * string into Go struct field ObjectMeta.metadata.labels of type map[string]string`). JSON nulls become Go's zero
 * values, in place: a null field is dropped, a null string in a map or list is "", a null struct in a list is {}.
 * Fields kube does not know are left alone (pruning and strict decoding report them).
 */
import { isGoInt } from '../../schemas/go-values.js';

type Check = (value: unknown, at: FieldAt) => unknown;

/** Where a value sits: the Go struct holding the field and the JSON path Go reports (no list indexes). */
interface FieldAt {
  struct: string;
  path: string;
}

class GoDecodeError extends Error {}

/** How encoding/json names a JSON value in an UnmarshalTypeError; numbers into integers carry their text. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

function mismatch(value: unknown, at: FieldAt, goType: string, kind = jsonKind(value)): never {
  throw new GoDecodeError(`json: cannot unmarshal ${kind} into Go struct field ${at.struct}.${at.path} of type ${goType}`);
}

const scalar =
  (goType: string, matches: (v: unknown) => boolean): Check =>
  (v, at) => {
    if (!matches(v)) mismatch(v, at, goType);
    return v;
  };

const goString = (goType: string) => scalar(goType, (v) => typeof v === 'string');
const goBool = scalar('bool', (v) => typeof v === 'boolean');

const goInt64: Check = (v, at) => {
  if (typeof v === 'number' && !isGoInt(v)) mismatch(v, at, 'int64', `number ${v}`);
  if (typeof v !== 'number') mismatch(v, at, 'int64');
  return v;
};

/** metav1.Time's own UnmarshalJSON: a string (its format is the server's to set), else the inner string decode error. */
const goTime: Check = (v) => {
  if (typeof v !== 'string') throw new GoDecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
};

/** FieldsV1 keeps any JSON as raw bytes. */
const anyJson: Check = (v) => v;

/** A string element of a map or list: null is "". */
const stringElement: Check = (v, at) => (v === null ? '' : goString('string')(v, at));

function goMap(goType: string): Check {
  return (v, at) => {
    if (typeof v !== 'object' || Array.isArray(v)) mismatch(v, at, goType);
    const m = v as Record<string, unknown>;
    for (const k of Object.keys(m)) m[k] = stringElement(m[k], at);
    return m;
  };
}

function goSlice(goType: string, element: Check, zero: () => unknown): Check {
  return (v, at) => {
    if (!Array.isArray(v)) mismatch(v, at, goType);
    return v.map((item) => (item === null ? zero() : element(item, at)));
  };
}

/** A Go struct: its known fields, checked in the order the document has them; null fields dropped. */
function goStruct(name: string, goType: string, fields: Record<string, Check>): (v: unknown, at: FieldAt) => Record<string, unknown> {
  return (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) mismatch(v, at, goType);
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const check = Object.hasOwn(fields, key) ? fields[key] : undefined;
      if (!check) continue;
      if (o[key] === null) delete o[key];
      else o[key] = check(o[key], { struct: name, path: at.path ? `${at.path}.${key}` : key });
    }
    return o;
  };
}

const ownerReference = goStruct('OwnerReference', 'v1.OwnerReference', {
  apiVersion: goString('string'),
  kind: goString('string'),
  name: goString('string'),
  uid: goString('types.UID'),
  controller: goBool,
  blockOwnerDeletion: goBool,
});

const managedFieldsEntry = goStruct('ManagedFieldsEntry', 'v1.ManagedFieldsEntry', {
  manager: goString('string'),
  operation: goString('v1.ManagedFieldsOperationType'),
  apiVersion: goString('string'),
  time: goTime,
  fieldsType: goString('string'),
  fieldsV1: anyJson,
  subresource: goString('string'),
});

const objectMeta = goStruct('ObjectMeta', 'v1.ObjectMeta', {
  name: goString('string'),
  generateName: goString('string'),
  namespace: goString('string'),
  selfLink: goString('string'),
  uid: goString('types.UID'),
  resourceVersion: goString('string'),
  generation: goInt64,
  creationTimestamp: goTime,
  deletionTimestamp: goTime,
  deletionGracePeriodSeconds: goInt64,
  labels: goMap('map[string]string'),
  annotations: goMap('map[string]string'),
  ownerReferences: goSlice('[]v1.OwnerReference', ownerReference, () => ({})),
  finalizers: goSlice('[]string', stringElement, () => ''),
  managedFields: goSlice('[]v1.ManagedFieldsEntry', managedFieldsEntry, () => ({})),
});

/**
 * Decodes `metadata` in place; returns Go's error text for the first field of the wrong type, or undefined.
 * `within`: the Go struct holding metadata and whether paths start at the object (typed kinds:
 * `ObjectMeta.metadata.labels`) or at metadata itself (custom resources decode it alone: `ObjectMeta.labels`).
 */
export function objectMetaDecodeError(metadata: unknown, within: { kindStruct: string } | 'standalone'): string | undefined {
  try {
    if (within === 'standalone') {
      if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
        return `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`;
      }
      objectMeta(metadata, { struct: 'ObjectMeta', path: '' });
    } else {
      objectMeta(metadata, { struct: within.kindStruct, path: 'metadata' });
    }
    return undefined;
  } catch (err) {
    if (err instanceof GoDecodeError) return err.message;
    throw err;
  }
}
