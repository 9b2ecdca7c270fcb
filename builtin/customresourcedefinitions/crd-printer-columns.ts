import type { PrinterColumn } from '../../core/contracts/resource-type.js';
import { CREATION_TIMESTAMP_DESCRIPTION } from '../../core/contracts/table-types.js';

/** What apiextensions-apiserver serves for a CRD version without additionalPrinterColumns (NAME, AGE). */
export const DEFAULT_CUSTOM_RESOURCE_COLUMNS: readonly PrinterColumn[] = [
  { name: 'Age', type: 'date', description: CREATION_TIMESTAMP_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' },
];

/** A version's printer columns, or kube's default Age column when it declares none. */
export function customResourceColumns(columns: PrinterColumn[] | undefined): readonly PrinterColumn[] {
  return columns && columns.length > 0 ? columns : DEFAULT_CUSTOM_RESOURCE_COLUMNS;
}
