import type { KubeObject, PrinterColumn } from '../contracts/resource-type.js';
import type { Table, TableListMeta, TablePrinter, TableRow } from '../contracts/table-types.js';
import { defaultTablePrinter } from './default-table-printer.js';
import { columnsTablePrinter } from './column-printer.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  /** What each row carries: nothing, PartialObjectMetadata (kubectl's default) or the object. */
  includeObject: IncludeObject;
  listMeta?: TableListMeta;
  /** The time ages are measured to (default: now). */
  now?: Date;
  /** The requested meta.k8s.io version: the Table's and its rows' PartialObjectMetadata apiVersion (default v1). */
  metaVersion?: 'v1' | 'v1beta1';
}

/**
 * Renders objects as a meta.k8s.io/v1 Table, as kube-apiserver answers `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.
 * `columns`: printer columns (the custom-resource convertor: Name, then each column; a CRD gets
 * the Age default from builtin/customresourcedefinitions/crd-printer-columns.ts), a built-in printer (e.g. namespaceTablePrinter), or undefined for kube's default convertor (Name, Created At).
 */
/** What a Table is rendered with: printer columns, a built-in printer, or nothing (kube's default convertor). */
export type TableColumns = readonly PrinterColumn[] | TablePrinter | undefined;

export function toTable(objects: KubeObject[], columns: TableColumns, opts: TableOptions): Table {
  const renderer = new TableRenderer(columns, opts);
  return renderer.table(objects.map((obj) => renderer.row(obj)));
}

/** A Table made row by row, so that a large list's rows can be made a slice at a time (core/handlers/respond.ts). */
export class TableRenderer {
  private readonly printer: TablePrinter;
  private readonly now: Date;
  private readonly apiVersion: Table['apiVersion'];

  constructor(
    columns: TableColumns,
    private readonly opts: TableOptions,
  ) {
    this.printer = columns === undefined ? defaultTablePrinter : 'cells' in columns ? columns : columnsTablePrinter(columns);
    this.now = opts.now ?? new Date();
    this.apiVersion = `meta.k8s.io/${opts.metaVersion ?? 'v1'}`;
  }

  row(obj: KubeObject): TableRow {
    return { cells: this.printer.cells(obj, this.now), object: rowObject(obj, this.opts.includeObject, this.apiVersion) };
  }

  table(rows: TableRow[]): Table {
    return {
      kind: 'Table',
      apiVersion: this.apiVersion,
      metadata: listMeta(this.opts.listMeta),
      columnDefinitions: this.printer.columnDefinitions,
      rows: rows.length === 0 && this.printer.nullRowsWhenEmpty ? null : rows,
    };
  }
}

function rowObject(obj: KubeObject, include: IncludeObject, apiVersion: Table['apiVersion']): unknown {
  switch (include) {
    case 'None':
      return null;
    case 'Object':
      return obj;
    case 'Metadata':
      // metav1.ObjectMeta always serializes creationTimestamp (null when unset); kube gives the row the Table's version.
      return {
        kind: 'PartialObjectMetadata',
        apiVersion,
        metadata: { ...obj.metadata, creationTimestamp: obj.metadata?.creationTimestamp ?? null },
      };
  }
}

/** ListMeta as kube serializes it: empty strings and an unset count left out. */
function listMeta(meta: TableListMeta = {}): TableListMeta {
  return {
    ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
    ...(meta.continue ? { continue: meta.continue } : {}),
    ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
  };
}
