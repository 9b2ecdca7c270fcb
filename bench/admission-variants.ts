import type { AdmissionVariant } from './admission-variant.js';
import { policiesVariant } from './bench-admission-policies.js';
import { mutatingPoliciesVariant } from './bench-admission-mutating-policies.js';
import { webhookVariant } from './bench-admission-webhook.js';

/**
 * The rows of the admission benchmark, each measured against creates without admission configuration. A row is an
 * `AdmissionVariant` in a file of its own (bench/bench-admission-<what>.ts) and one entry here.
 */
export const admissionVariants: AdmissionVariant[] = [{ key: 'plugins', title: '5 in-process plugins', admissionPlugins: 5 }, policiesVariant, mutatingPoliciesVariant, webhookVariant];
