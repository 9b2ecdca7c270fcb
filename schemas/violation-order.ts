/**
 * The order in which kube-openapi reports violations, as sortable keys. kube-openapi walks the data depth-first and
 * runs, for every value, its validators in a fixed order:
 *
 *   0 type · 1 allOf/anyOf/oneOf/not · 2 string · 3 format · 4 number · 5 array (items, then min/max/unique)
 *   · 6 enum · 7 object (min/max properties, then additional properties, then properties, then required)
 *
 * A key is the concatenation, from the root down, of [rank, sub-rank, child] steps and the violation's own tail.
 * Sibling properties are ordered by name (kube-apiserver visits them in Go map order, i.e. unspecified).
 */

export type OrderKey = (number | string)[];

export const RANK = {
  type: 0,
  composite: 1,
  string: 2,
  format: 3,
  number: 4,
  array: 5,
  enum: 6,
  object: 7,
} as const;

/** Object sub-ranks. */
export const OBJECT = { size: 0, additional: 1, properties: 2, required: 3 } as const;

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** One step down the data: into a declared property, an additionalProperties value, or an array item. */
export interface PathStep {
  via: 'property' | 'additional' | 'item';
  segment: string;
}

/**
 * The steps from the validated root to the keyword that reported an error, read from the ajv schema path
 * (`#/properties/spec/properties/list/items/x-kapi-type`) and instance path (`/spec/list/0`).
 */
export function pathSteps(schemaPath: string, instancePath: string): PathStep[] {
  const schema = schemaPath.replace(/^#\/?/, '').split('/');
  const instance = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  const steps: PathStep[] = [];
  let next = 0;
  for (let i = 0; i < schema.length - 1; i++) {
    switch (schema[i]) {
      case 'properties':
        steps.push({ via: 'property', segment: instance[next++] });
        i++; // the property name
        break;
      case 'additionalProperties':
        steps.push({ via: 'additional', segment: instance[next++] });
        break;
      case 'items':
        steps.push({ via: 'item', segment: instance[next++] });
        break;
      default:
        break; // then (the branch of the min/max properties gate)
    }
  }
  return steps;
}

/** The order key of a path. */
export function stepsKey(steps: PathStep[]): OrderKey {
  const key: OrderKey = [];
  for (const step of steps) {
    if (step.via === 'property') key.push(RANK.object, OBJECT.properties, step.segment);
    else if (step.via === 'additional') key.push(RANK.object, OBJECT.additional, step.segment);
    else key.push(RANK.array, 0, Number(step.segment));
  }
  return key;
}

/**
 * kube-openapi's validator path ("Name") of a path: `spec.replicas`, `spec.list[0]`; values of additionalProperties
 * are always appended with a dot, even at the root (`.key`), as kube-openapi does.
 */
export function validatorName(steps: PathStep[], base = ''): string {
  let name = base;
  for (const step of steps) {
    if (step.via === 'property') name = name === '' ? step.segment : `${name}.${step.segment}`;
    else if (step.via === 'additional') name = `${name}.${step.segment}`;
    else name = `${name}[${step.segment}]`;
  }
  return name;
}

export function compareKeys(a: OrderKey, b: OrderKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
