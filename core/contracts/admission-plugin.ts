import type { AdmissionAttributes, AdmissionOperation } from './admission-attributes.js';

/**
 * Whether calling a plugin changes anything outside the object (kube's webhook sideEffects). `Some` refuses dry-run
 * requests it matches; `NoneOnDryRun` promises to skip its side effects when `attrs.dryRun` is set.
 */
export type SideEffects = 'None' | 'NoneOnDryRun' | 'Some';

/**
 * Which resources a plugin handles, as kube's admission rules spell them: `apiGroups` ('' is the core group), and
 * `resources` like 'widgets', 'widgets/status', '*' (every resource, no subresources), '*\/status' or '*\/*'.
 */
export interface AdmissionRule {
  apiGroups: string[];
  resources: string[];
}

/**
 * An in-process admission plugin, registered under `Tokens.AdmissionPlugin`. `admit` runs in the mutating phase
 * (before schema validation and defaulting), `validate` in the validating phase (after it) and must not change the
 * object. Either may push warnings to `attrs.warnings` and refuses the request by throwing an `ApiError`.
 */
export interface AdmissionPlugin {
  /** Unique; what `admissionPlugins` / `--admission-plugins` name. */
  readonly name: string;
  readonly operations: readonly (AdmissionOperation | '*')[];
  readonly rules: readonly AdmissionRule[];
  readonly sideEffects: SideEffects;
  /** false: registered but off unless named in the configuration (kube's default-off plugins). Default true. */
  readonly enabledByDefault?: boolean;
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
}
