import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import type { Endpoints } from './endpoints-types.js';

/** How many endpoints kube's printer lists before `+ N more...`. */
const shown = 3;

/** `ip:port` as Go's net.JoinHostPort writes it (IPv6 in brackets). */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** kube's formatEndpoints: the ready addresses with each port (just the address when a subset has no ports). */
function formatEndpoints(ep: Endpoints): string {
  if (!ep.subsets?.length) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const ss of ep.subsets) {
    const addresses = ss.addresses ?? [];
    const entries = ss.ports?.length ? ss.ports.flatMap((p) => addresses.map((a) => hostPort(a.ip ?? '', p.port ?? 0))) : addresses.map((a) => a.ip ?? '');
    count += entries.length;
    for (const entry of entries) if (list.length < shown) list.push(entry);
  }
  const text = list.join(',');
  return count > shown ? `${text} + ${count - shown} more...` : text;
}

/** kube's Endpoints printer (`kubectl get ep`: NAME, ENDPOINTS, AGE). */
export const endpointsTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    { name: 'Endpoints', type: 'string', format: '', description: builtinSchema('endpoints.v1').properties!.subsets!.description!, priority: 0 },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 },
  ],
  cells: (obj, now) => [obj.metadata?.name ?? '', formatEndpoints(obj as Endpoints), age(obj.metadata?.creationTimestamp, now)],
};
