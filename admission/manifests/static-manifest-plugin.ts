import type { KubeObject, ResourceType } from '../../core/contracts/resource-type.js';
import type { StatusCause } from '../../core/contracts/status.js';

/** One kind a plugin's static manifests directory may hold (admissionregistration.k8s.io/v1 only, as kube). */
export interface StaticManifestKind {
  /** The served kind: its Go type, schema and strategy (defaults) are what an API create of it goes through. */
  rt: ResourceType;
  /** The kind's validation of a new object, as an API create runs it, without the API's reserved-name rule. */
  validate(obj: KubeObject): StatusCause[];
  /** What objects loaded from files may not use (kube's manifest restrictions): the refusal, or undefined. */
  restriction?(obj: KubeObject): string | undefined;
}

/** The objects loaded from one directory: by kind, then by name (in name order). */
export type LoadedManifests = ReadonlyMap<string, ReadonlyMap<string, KubeObject>>;

/**
 * An admission plugin that reads its configuration from the AdmissionConfiguration file (kube's
 * `--admission-control-config-file`), and loads the objects of its `staticManifestsDir` (KEP-5793). Adding a
 * kind to a plugin is one entry in `kinds`.
 */
export interface StaticManifestPlugin {
  /** The admission plugin's name, as AdmissionConfiguration's `plugins[].name` gives it. */
  name: string;
  /** The plugin configuration kinds it reads, as `apiVersion` → `kind`s. */
  configurationKinds: Readonly<Record<string, readonly string[]>>;
  kinds: StaticManifestKind[];
  /** Checks across the set loaded (a binding's policy must be in it): the refusal, or undefined. */
  checkSet?(objects: LoadedManifests): string | undefined;
  /** Puts a loaded set in force (replacing the previous one at once). */
  apply(objects: LoadedManifests): void;
}
