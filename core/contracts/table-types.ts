import type { KubeObject } from './resource-type.js';

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
