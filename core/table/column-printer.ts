import type { PrinterColumn } from '../contracts/resource-type.js';
import type { TablePrinter } from '../contracts/table-types.js';
import { NAME_COLUMN } from '../contracts/table-types.js';
import { cellValue } from './cell-value.js';
import { compileJsonPath } from './jsonpath.js';

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
