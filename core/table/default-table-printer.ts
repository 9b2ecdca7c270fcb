import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../contracts/table-types.js';
import { formatRFC3339, isZeroTime, parseRFC3339 } from '../../lib/go/timestamp.js';

/** The creation time as the default convertor prints it: RFC 3339 in UTC, Go's zero time when unset. */
function createdAt(timestamp: string | undefined): string {
  const t = timestamp ? parseRFC3339(timestamp) : undefined;
  return t === undefined || isZeroTime(t) ? '0001-01-01T00:00:00Z' : formatRFC3339({ seconds: t.seconds, nanos: 0, offset: 0 }, 0);
}

/** k8s.io/apiserver's default table convertor, for types without a printer: NAME, CREATED AT. */
export const defaultTablePrinter: TablePrinter = {
  columnDefinitions: [NAME_COLUMN, { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 }],
  cells: (obj) => [obj.metadata?.name ?? '', createdAt(obj.metadata?.creationTimestamp)],
  nullRowsWhenEmpty: true,
};
