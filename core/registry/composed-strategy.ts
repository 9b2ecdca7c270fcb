import type { KubeObject, ResourceStrategy, WriteSettlement } from '../contracts/resource-type.js';
import type { StatusCause } from '../contracts/status.js';

/**
 * One strategy that runs `strategies` in order: each hook calls every strategy's in turn (each sees what the ones
 * before it changed), `validate` concatenates their causes and `warningsOn…` their warnings, finalizers are the
 * union in order. A hook none of them has stays absent.
 */
export function composeStrategies(strategies: readonly ResourceStrategy[]): ResourceStrategy {
  const having = <K extends keyof ResourceStrategy>(hook: K) => strategies.filter((s) => s[hook] !== undefined);
  const composed: ResourceStrategy = {};

  const creating = having('prepareForCreate');
  if (creating.length) composed.prepareForCreate = (obj) => creating.forEach((s) => s.prepareForCreate!(obj));
  const updating = having('prepareForUpdate');
  if (updating.length) composed.prepareForUpdate = (obj, old) => updating.forEach((s) => s.prepareForUpdate!(obj, old));
  const statusUpdating = having('prepareForStatusUpdate');
  if (statusUpdating.length) composed.prepareForStatusUpdate = (obj, old) => statusUpdating.forEach((s) => s.prepareForStatusUpdate!(obj, old));
  const finalizeUpdating = having('prepareForFinalizeUpdate');
  if (finalizeUpdating.length) composed.prepareForFinalizeUpdate = (obj, old) => finalizeUpdating.forEach((s) => s.prepareForFinalizeUpdate!(obj, old));
  const validating = having('validate');
  if (validating.length) composed.validate = (obj, old, subresource) => validating.flatMap((s): StatusCause[] => s.validate!(obj, old, subresource));
  const warningCreating = having('warningsOnCreate');
  if (warningCreating.length) composed.warningsOnCreate = (obj) => warningCreating.flatMap((s) => s.warningsOnCreate!(obj));
  const warningUpdating = having('warningsOnUpdate');
  if (warningUpdating.length) composed.warningsOnUpdate = (obj, old, subresource) => warningUpdating.flatMap((s) => s.warningsOnUpdate!(obj, old, subresource));
  const canonicalizing = having('canonicalize');
  if (canonicalizing.length) composed.canonicalize = (obj) => canonicalizing.forEach((s) => s.canonicalize!(obj));
  const deleting = having('prepareForDeletion');
  if (deleting.length) composed.prepareForDeletion = (obj) => deleting.forEach((s) => s.prepareForDeletion!(obj));

  const beginning = having('beginWrite');
  if (beginning.length) {
    composed.beginWrite = async (obj, old, options) => {
      const settlements: WriteSettlement[] = [];
      try {
        for (const s of beginning) {
          const settle = await s.beginWrite!(obj, old, options);
          if (settle) settlements.push(settle);
        }
      } catch (err) {
        for (const settle of settlements) settle(undefined);
        throw err;
      }
      return settlements.length ? (stored) => settlements.forEach((settle) => settle(stored)) : undefined;
    };
  }

  const authorizing = having('authorizeWrite');
  if (authorizing.length) {
    composed.authorizeWrite = async (obj, old, attrs) => {
      for (const s of authorizing) await s.authorizeWrite!(obj, old, attrs);
    };
  }

  const defaultFinalizers = [...new Set(strategies.flatMap((s) => s.defaultFinalizers ?? []))];
  if (defaultFinalizers.length) composed.defaultFinalizers = defaultFinalizers;
  const holding = having('extraFinalizers');
  if (holding.length) composed.extraFinalizers = (obj: KubeObject) => holding.flatMap((s) => s.extraFinalizers!(obj));
  return composed;
}
