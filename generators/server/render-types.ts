import type { KindModel, ServerModel } from './server-model.js';

function kindTypes({ kind, plural }: KindModel): string {
  return `/** What a ${kind} should be. */
export interface ${kind}Spec {
  /**
   * A message, free text.
   * +kubebuilder:validation:MinLength=1
   * +kubebuilder:validation:MaxLength=256
   */
  message: string;
  /**
   * How many of it, 0 to 100 (default 1).
   * +kubebuilder:default=1
   * +kubebuilder:validation:Minimum=0
   * +kubebuilder:validation:Maximum=100
   */
  size?: Int32;
}

/** What a ${kind} is, as its controller reports it through the status subresource. */
export interface ${kind}Status {
  /**
   * Where it is.
   * +kubebuilder:validation:Enum=Pending;Ready;Failed
   */
  phase?: string;
  /** The metadata.generation this status was written for. */
  observedGeneration?: Int64;
}

/** A ${kind}, kept in SQLite by the server. */
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=${plural},scope=Namespaced
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Message",type=string,JSONPath=".spec.message"
// +kubebuilder:printcolumn:name="Size",type=integer,JSONPath=".spec.size"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
export interface ${kind} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ${kind}Spec;
  status?: ${kind}Status;
}
`;
}

/** src/types.ts: the kinds as TypeScript with controller-gen's markers, the input of `kapi gen crd`. */
export function renderTypes(m: ServerModel): string {
  const { kind, plural } = m.info;
  const header = `// The resources of ${m.group}/${m.version}, as TypeScript with controller-gen's markers. \`npm run build\` turns them
// into CustomResourceDefinitions (kapi gen crd src/types.ts -o crds), whose schemas, names and printer columns the
// server serves: change a kind here, and the server follows at the next build.
//
// +groupName=${m.group}
// +versionName=${m.version}

import type { Int32, Int64, ObjectMeta } from 'kapi';
`;
  const info = `/** The server's state. */
export interface ${kind}Status {
  /**
   * When the server started.
   * +kubebuilder:validation:Format=date-time
   */
  startTime: string;
  /** Seconds since the server started. */
  uptimeSeconds: Int64;
  /** The objects stored, by resource. */
  objects: Record<string, Int64>;
}

/** The server itself, computed when read (nothing is stored): one object, named "server". */
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=${plural},scope=Cluster
// +kubebuilder:printcolumn:name="Started",type=date,JSONPath=".status.startTime"
// +kubebuilder:printcolumn:name="Uptime",type=integer,JSONPath=".status.uptimeSeconds"
export interface ${kind} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  status: ${kind}Status;
}
`;
  return [header, ...m.kinds.map(kindTypes), info].join('\n');
}
