/**
 * The schema rules kube-apiserver v1.32 relaxes when a CRD is updated whose stored schemas already break them
 * ("don't tighten validation on existing persisted data"): valid property types, pruned defaults, atomic items in
 * x-kubernetes-list-type=set lists, and the keys and items of map and set lists.
 */
import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { pruneUnknownFields } from '../schema-pruning.js';
import type { SchemaCause } from '../validation-errors.js';
import { hasInvalidMapListKeysMapSet } from './openapi-schema-rules.js';
import { additionalSchema, entries, field, flag, isNode, itemsSchema, schemaHas, str, type SchemaNode } from './schema-node.js';
import { structuralConversionError } from './structural-conversion.js';
import { structuralCompleteness } from './structural-completeness.js';
import { structuralInvariants } from './structural-invariants.js';

/** The rules that apply in full unless the CRD being updated already broke them. */
export interface CrdSchemaRequirements {
  requireValidPropertyType: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

/** Everything required: a create, or an update of a CRD that met every rule. */
export const allRequirements: CrdSchemaRequirements = {
  requireValidPropertyType: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

const OPENAPI_V3_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function hasInvalidType(s: SchemaNode): boolean {
  const type = str(s, 'type');
  return type !== '' && !OPENAPI_V3_TYPES.has(type);
}

function hasNonAtomicSetType(s: SchemaNode): boolean {
  const items = itemsSchema(s);
  if (field(s, 'x-kubernetes-list-type') !== 'set' || !items) return false;
  switch (str(items, 'type')) {
    case 'array': {
      const t = field(items, 'x-kubernetes-list-type');
      return t !== undefined && t !== 'atomic';
    }
    case 'object':
      return field(items, 'x-kubernetes-map-type') !== 'atomic';
    default:
      return false;
  }
}

function isStructural(s: SchemaNode): boolean {
  if (structuralConversionError(s)) return false;
  const out: SchemaCause[] = [];
  structuralInvariants(s, 'root', '', out);
  structuralCompleteness(s, '', out);
  return out.length === 0;
}

/** A structural node whose default loses fields when pruned by its schema. */
function hasUnprunedDefault(s: SchemaNode, isResourceRoot: boolean): boolean {
  const value = field(s, 'default');
  if (value !== undefined) {
    const pruned = structuredClone(value);
    pruneUnknownFields(pruned, s as JSONSchemaProps, isResourceRoot || flag(s, 'x-kubernetes-embedded-resource'));
    if (!isDeepStrictEqual(pruned, value)) return true;
  }
  const next = [itemsSchema(s), additionalSchema(s), ...entries(s, 'properties').map(([, p]) => p)];
  return next.some((x) => x !== undefined && hasUnprunedDefault(x, false));
}

/** The requirements for updating a CRD whose stored openAPIV3Schemas are `oldSchemas`. */
export function requirementsForUpdate(oldSchemas: unknown[]): CrdSchemaRequirements {
  const schemas = oldSchemas.filter(isNode);
  return {
    requireValidPropertyType: !schemas.some((s) => schemaHas(s, hasInvalidType)),
    requirePrunedDefaults: !schemas.some((s) => schemaHas(s, (x) => field(x, 'default') !== undefined) && isStructural(s) && hasUnprunedDefault(s, true)),
    requireAtomicSetType: !schemas.some((s) => schemaHas(s, hasNonAtomicSetType)),
    requireMapListKeysMapSetValidation: !schemas.some((s) => schemaHas(s, hasInvalidMapListKeysMapSet)),
  };
}
