import { NAME_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, type TablePrinter, type TableColumnDefinition } from '../../core/contracts/table-types.js';
import { age } from '../../lib/go/human-duration.js';
import { goCompare } from '../../lib/go/strings.js';
import { builtinSchema } from '../../schemas/builtin-schemas.js';
import type { Service, ServiceSpec } from './service-types.js';

const specDoc = (field: string) => builtinSchema('service.v1').properties!.spec!.properties![field]!.description!;
const column = (name: string, description: string, priority = 0): TableColumnDefinition => ({ name, type: 'string', format: '', description, priority });

/** kube's loadBalancerStatusStringer (wide, as the server prints): the ingress IPs or host names, sorted and unique. */
function loadBalancerAddresses(svc: Service): string[] {
  const addresses = (svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== '');
  return [...new Set(addresses)].sort(goCompare);
}

/** kube's getServiceExternalIP. */
function externalIP(svc: Service, spec: ServiceSpec): string {
  const external = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(svc);
      if (external.length) return [...lb, ...external].join(',');
      return lb.length ? lb.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** kube's makePortString: `80/TCP`, `80:30080/TCP` with a node port. */
function ports(spec: ServiceSpec): string {
  const text = (spec.ports ?? []).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',');
  return text || '<none>';
}

/** kube's labels.FormatLabels: `a=b,c=d` sorted by key, `<none>` when empty. */
function selector(spec: ServiceSpec): string {
  const entries = Object.entries(spec.selector ?? {}).sort(([a], [b]) => goCompare(a, b));
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
}

/** kube's Service printer (`kubectl get svc`: NAME, TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; SELECTOR with -o wide). */
export const serviceTablePrinter: TablePrinter = {
  columnDefinitions: [
    NAME_COLUMN,
    column('Type', specDoc('type')),
    column('Cluster-IP', specDoc('clusterIP')),
    column('External-IP', specDoc('externalIPs')),
    column('Port(s)', specDoc('ports')),
    column('Age', CREATION_TIMESTAMP_DESCRIPTION),
    column('Selector', specDoc('selector'), 1),
  ],
  cells: (obj, now) => {
    const svc = obj as Service;
    const spec = svc.spec ?? {};
    return [
      svc.metadata?.name ?? '',
      spec.type ?? '',
      spec.clusterIPs?.[0] ?? '<none>',
      externalIP(svc, spec),
      ports(spec),
      age(svc.metadata?.creationTimestamp, now),
      selector(spec),
    ];
  },
};
