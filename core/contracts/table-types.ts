import type { KubeObject } from './kube-object.js';

/** meta.k8s.io/v1 TableColumnDefinition; kube always serializes every field. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  /** PartialObjectMetadata, the object, or null (includeObject=None). */
  object: unknown;
}

export interface TableListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** meta.k8s.io/v1 (or v1beta1) Table. */
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1';
  metadata: TableListMeta;
  columnDefinitions: TableColumnDefinition[];
  /** null only where kube sends null: the default convertor with no objects. */
  rows: TableRow[] | null;
}

/** How one kind of object is printed: its columns and the cells of one object. */
export interface TablePrinter {
  columnDefinitions: TableColumnDefinition[];
  cells(obj: KubeObject, now: Date): unknown[];
  /** kube's default convertor leaves `rows` null (not []) when there is nothing to print. */
  nullRowsWhenEmpty?: boolean;
}

/** metav1.ObjectMeta's documentation of `name`, used as the Name column's description. */
export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** metav1.ObjectMeta's documentation of `creationTimestamp`, used for age and creation columns. */
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export const NAME_COLUMN: TableColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 };
