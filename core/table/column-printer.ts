import type { PrinterColumn } from '../contracts/resource-type.js';
import type { TablePrinter } from '../contracts/table-types.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN } from './builtin-printers.js';
import { cellValue } from './cell-value.js';
import { compileJsonPath } from './jsonpath.js';

/** What apiextensions-apiserver serves for a CRD version without additionalPrinterColumns (NAME, AGE). */
export const DEFAULT_CUSTOM_RESOURCE_COLUMNS: readonly PrinterColumn[] = [
  { name: 'Age', type: 'date', description: CREATION_TIMESTAMP_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' },
];

/** A version's printer columns, or kube's default Age column when it declares none. */
export function customResourceColumns(columns: PrinterColumn[] | undefined): readonly PrinterColumn[] {
  return columns && columns.length > 0 ? columns : DEFAULT_CUSTOM_RESOURCE_COLUMNS;
}

/**
 * apiextensions-apiserver's table convertor: a Name column, then one column per printer column,
 * each cell from the first value its JSONPath selects. Throws if a JSONPath does not parse.
 */
export function columnsTablePrinter(columns: readonly PrinterColumn[]): TablePrinter {
  const paths = columns.map((c) => compileJsonPath(c.jsonPath));
  return {
    columnDefinitions: [
      NAME_COLUMN,
      ...columns.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format ?? '',
        description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
        priority: c.priority ?? 0,
      })),
    ],
    cells: (obj, now) => [
      obj.metadata?.name ?? '',
      ...columns.map((c, i) => {
        const found = paths[i].find(obj);
        return found.length === 0 ? null : cellValue(c.type, found[0], now);
      }),
    ],
  };
}
