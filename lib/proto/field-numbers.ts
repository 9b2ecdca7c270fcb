import { ProtoGenError } from './proto-gen-error.js';

/*
 * Protobuf field numbers of a CRD, kept in the CRD itself as the annotation `proto.kapi.dev/field-numbers`:
 *
 *   {"v1": {"$": {"metadata": 1, "spec": 2, "status": 3}, "$.spec": {"color": 1, "replicas": 2}, "$.spec.ports[]": {…}}}
 *
 * per version, per message (named by its schema path), JSON property -> number. Numbers cannot be derived from the
 * schema alone and stay stable: an added property would shift every number a deterministic order gives, and a
 * hash of the name may collide. Recording them makes every change explicit: `kapi gen proto` keeps each recorded
 * number, gives a new property the message's highest number + 1, and keeps the entries of removed properties so
 * their numbers stay reserved (a property added again under the same name gets its old number back).
 */

/** The CRD annotation holding the field numbers. */
export const fieldNumbersAnnotation = 'proto.kapi.dev/field-numbers';

/** Field numbers of one message: JSON property -> number. */
export type MessageNumbers = Map<string, number>;
/** Field numbers of one version: message path -> its fields' numbers. */
export type VersionNumbers = Map<string, MessageNumbers>;
/** Field numbers of a CRD: version -> message path -> JSON property -> number. */
export type FieldNumbers = Map<string, VersionNumbers>;

/** The largest field number protobuf allows. */
export const maxFieldNumber = 2 ** 29 - 1;
/** Numbers protobuf reserves for its own implementation. */
const reservedRange = { first: 19000, last: 19999 };

/** Whether protobuf accepts `n` as a field number. */
export function isValidFieldNumber(n: unknown): n is number {
  return Number.isInteger(n) && (n as number) >= 1 && (n as number) <= maxFieldNumber && ((n as number) < reservedRange.first || (n as number) > reservedRange.last);
}

/** The number after `n` that protobuf accepts (skipping its reserved range). */
export function nextFieldNumber(n: number): number {
  const next = n + 1 >= reservedRange.first && n + 1 <= reservedRange.last ? reservedRange.last + 1 : n + 1;
  if (next > maxFieldNumber) throw new ProtoGenError(`no field number left after ${n}`);
  return next;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses the annotation's value (absent: no numbers yet). Throws ProtoGenError unless it is the JSON object
 * described above with valid numbers, unique within each message.
 */
export function parseFieldNumbers(text: string | undefined): FieldNumbers {
  const numbers: FieldNumbers = new Map();
  if (text === undefined) return numbers;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ProtoGenError(`annotation ${fieldNumbersAnnotation} is not JSON: ${(err as Error).message}`);
  }
  if (!isPlainObject(value)) throw new ProtoGenError(`annotation ${fieldNumbersAnnotation} must be a JSON object`);
  for (const [version, messages] of Object.entries(value)) {
    if (!isPlainObject(messages)) throw new ProtoGenError(`annotation ${fieldNumbersAnnotation}: version ${JSON.stringify(version)} must map message paths to objects`);
    const versionNumbers: VersionNumbers = new Map();
    for (const [path, fields] of Object.entries(messages)) {
      const where = `annotation ${fieldNumbersAnnotation}: ${version} ${path}`;
      if (!isPlainObject(fields)) throw new ProtoGenError(`${where} must map fields to numbers`);
      const messageNumbers: MessageNumbers = new Map();
      const owners = new Map<number, string>();
      for (const [field, n] of Object.entries(fields)) {
        if (!isValidFieldNumber(n)) throw new ProtoGenError(`${where}: ${JSON.stringify(field)} has an invalid field number ${JSON.stringify(n)}`);
        const other = owners.get(n);
        if (other !== undefined) throw new ProtoGenError(`${where}: ${JSON.stringify(other)} and ${JSON.stringify(field)} share the field number ${n}`);
        owners.set(n, field);
        messageNumbers.set(field, n);
      }
      versionNumbers.set(path, messageNumbers);
    }
    numbers.set(version, versionNumbers);
  }
  return numbers;
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The annotation's value: versions and paths sorted, fields by number, so a diff shows exactly what changed. */
export function formatFieldNumbers(numbers: FieldNumbers): string {
  const versions = [...numbers.keys()].sort(byteOrder).map((version) => {
    const messages = numbers.get(version)!;
    const paths = [...messages.keys()].sort(byteOrder).map((path) => {
      const fields = [...messages.get(path)!].sort((a, b) => a[1] - b[1]).map(([f, n]) => `${JSON.stringify(f)}:${n}`);
      return `${JSON.stringify(path)}:{${fields.join(',')}}`;
    });
    return `${JSON.stringify(version)}:{${paths.join(',')}}`;
  });
  return `{${versions.join(',')}}`;
}
