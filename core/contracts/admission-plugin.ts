import type { KubeObject } from './resource-type.js';
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
 * An in-process admission plugin, registered under `Tokens.AdmissionPlugin` (write one with `defineAdmissionPlugin`).
 * `admit` runs in the mutating phase, on the object as decoded (custom resources pruned and defaulted) before schema
 * validation, and may change `attrs.object` in place or replace it; `validate` runs in the validating phase (after
 * validation) and must not change the object. Either may push warnings to `attrs.warnings` and refuses the request by
 * throwing an `ApiError` (`admissionInvalid` builds the 422 of field errors).
 *
 * `T` is the type of the objects the plugin's `rules` select: `Widget` for rules on `widgets` or `widgets/status`, an
 * autoscaling/v1 Scale for `widgets/scale`; on DELETE, `object` is the stored object. The chain matches plugins by
 * resource and cannot check the object against `T`: the rules are the proof, so a plugin for several kinds keeps the
 * default. `admit` sees what the client sent, not yet validated, so declare optional in `T` what the schema does not
 * default. `admit` and `validate` are methods, hence an `AdmissionPlugin<Widget>` is accepted where an
 * `AdmissionPlugin` is: registering it takes its rules' word for `T`.
 */
export interface AdmissionPlugin<T extends KubeObject = KubeObject> {
  /** Unique; what `admissionPlugins` / `--admission-plugins` name. */
  readonly name: string;
  readonly operations: readonly (AdmissionOperation | '*')[];
  readonly rules: readonly AdmissionRule[];
  readonly sideEffects: SideEffects;
  /** false: registered but off unless named in the configuration (kube's default-off plugins). Default true. */
  readonly enabledByDefault?: boolean;
  admit?(attrs: AdmissionAttributes<T>): Promise<void> | void;
  validate?(attrs: AdmissionAttributes<T>): Promise<void> | void;
}
