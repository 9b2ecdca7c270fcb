/**
 * The controller-gen markers `kapi gen crd` knows, with the shape of their arguments. Names and argument names are
 * controller-gen's (sigs.k8s.io/controller-tools), so a marker copied from a Go type means the same here.
 */

/** How one argument is written: scalars, a list (`{a,b}` or `a;b`), or any YAML/JSON literal. */
export type ArgType = 'string' | 'int' | 'number' | 'bool' | 'string-list' | 'any' | 'any-list';

/** Where a marker may stand: on the file (its header comment), a type, a field, or a type or a field. */
export type MarkerTarget = 'package' | 'type' | 'field' | 'type-or-field';

export type MarkerShape =
  | { kind: 'flag' }
  | { kind: 'value'; type: ArgType }
  | { kind: 'args'; args: Record<string, { type: ArgType; required?: boolean }> };

export interface MarkerDefinition {
  name: string;
  target: MarkerTarget;
  shape: MarkerShape;
  /** May be given more than once on one type or field. */
  repeatable?: boolean;
}

const flag: MarkerShape = { kind: 'flag' };
const value = (type: ArgType): MarkerShape => ({ kind: 'value', type });
const args = (a: Record<string, { type: ArgType; required?: boolean }>): MarkerShape => ({ kind: 'args', args: a });

const definitions: MarkerDefinition[] = [
  { name: 'groupName', target: 'package', shape: value('string') },
  { name: 'versionName', target: 'package', shape: value('string') },
  { name: 'kubebuilder:object:root', target: 'type', shape: value('bool') },
  {
    name: 'kubebuilder:resource',
    target: 'type',
    shape: args({
      path: { type: 'string' },
      scope: { type: 'string' },
      shortName: { type: 'string-list' },
      categories: { type: 'string-list' },
      singular: { type: 'string' },
    }),
  },
  { name: 'kubebuilder:subresource:status', target: 'type', shape: flag },
  {
    name: 'kubebuilder:subresource:scale',
    target: 'type',
    shape: args({ specpath: { type: 'string', required: true }, statuspath: { type: 'string', required: true }, selectorpath: { type: 'string' } }),
  },
  {
    name: 'kubebuilder:printcolumn',
    target: 'type',
    repeatable: true,
    shape: args({
      name: { type: 'string', required: true },
      type: { type: 'string', required: true },
      JSONPath: { type: 'string', required: true },
      description: { type: 'string' },
      format: { type: 'string' },
      priority: { type: 'int' },
    }),
  },
  { name: 'kubebuilder:storageversion', target: 'type', shape: flag },
  { name: 'kubebuilder:deprecatedversion', target: 'type', shape: args({ warning: { type: 'string' } }) },
  { name: 'kubebuilder:unservedversion', target: 'type', shape: flag },
  { name: 'kubebuilder:selectablefield', target: 'type', repeatable: true, shape: args({ JSONPath: { type: 'string', required: true } }) },
  { name: 'kubebuilder:validation:Minimum', target: 'type-or-field', shape: value('number') },
  { name: 'kubebuilder:validation:Maximum', target: 'type-or-field', shape: value('number') },
  { name: 'kubebuilder:validation:ExclusiveMinimum', target: 'type-or-field', shape: value('bool') },
  { name: 'kubebuilder:validation:ExclusiveMaximum', target: 'type-or-field', shape: value('bool') },
  { name: 'kubebuilder:validation:MultipleOf', target: 'type-or-field', shape: value('number') },
  { name: 'kubebuilder:validation:MinLength', target: 'type-or-field', shape: value('int') },
  { name: 'kubebuilder:validation:MaxLength', target: 'type-or-field', shape: value('int') },
  { name: 'kubebuilder:validation:Pattern', target: 'type-or-field', shape: value('string') },
  { name: 'kubebuilder:validation:MinItems', target: 'type-or-field', shape: value('int') },
  { name: 'kubebuilder:validation:MaxItems', target: 'type-or-field', shape: value('int') },
  { name: 'kubebuilder:validation:UniqueItems', target: 'type-or-field', shape: value('bool') },
  { name: 'kubebuilder:validation:MinProperties', target: 'type-or-field', shape: value('int') },
  { name: 'kubebuilder:validation:MaxProperties', target: 'type-or-field', shape: value('int') },
  { name: 'kubebuilder:validation:Enum', target: 'type-or-field', shape: value('any-list') },
  { name: 'kubebuilder:validation:Format', target: 'type-or-field', shape: value('string') },
  { name: 'kubebuilder:validation:Type', target: 'type-or-field', shape: value('string') },
  { name: 'kubebuilder:validation:XIntOrString', target: 'type-or-field', shape: flag },
  { name: 'kubebuilder:validation:XEmbeddedResource', target: 'type-or-field', shape: flag },
  { name: 'kubebuilder:validation:Required', target: 'field', shape: flag },
  { name: 'kubebuilder:validation:Optional', target: 'field', shape: flag },
  {
    name: 'kubebuilder:validation:XValidation',
    target: 'type-or-field',
    repeatable: true,
    shape: args({
      rule: { type: 'string', required: true },
      message: { type: 'string' },
      messageExpression: { type: 'string' },
      reason: { type: 'string' },
      fieldPath: { type: 'string' },
      optionalOldSelf: { type: 'bool' },
    }),
  },
  { name: 'kubebuilder:default', target: 'type-or-field', shape: value('any') },
  { name: 'kubebuilder:example', target: 'type-or-field', shape: value('any') },
  { name: 'kubebuilder:pruning:PreserveUnknownFields', target: 'type-or-field', shape: flag },
  { name: 'nullable', target: 'field', shape: flag },
  { name: 'optional', target: 'field', shape: flag },
  { name: 'required', target: 'field', shape: flag },
  { name: 'listType', target: 'type-or-field', shape: value('string') },
  { name: 'listMapKey', target: 'type-or-field', repeatable: true, shape: value('string') },
  { name: 'mapType', target: 'type-or-field', shape: value('string') },
  { name: 'structType', target: 'type-or-field', shape: value('string') },
];

const byName = new Map(definitions.map((d) => [d.name, d]));

/**
 * The definition whose name starts `body` (a marker without its `+`), followed by `=`, `:` or the end — the longest
 * such name, as `kubebuilder:subresource:scale:specpath=…` is the scale marker with arguments.
 */
export function findMarker(body: string): MarkerDefinition | undefined {
  let best: MarkerDefinition | undefined;
  for (const [name, def] of byName) {
    if (!body.startsWith(name)) continue;
    const next = body.charAt(name.length);
    if (next !== '' && next !== '=' && next !== ':') continue;
    if (!best || name.length > best.name.length) best = def;
  }
  return best;
}
