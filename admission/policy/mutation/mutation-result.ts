import type { KubeObject } from '../../../core/contracts/resource-type.js';

/** The outcome of one mutation: the mutated object, or kube's error text (handled per the policy's failurePolicy). */
export type MutationResult = { object: KubeObject; error?: undefined } | { error: string; object?: undefined };
