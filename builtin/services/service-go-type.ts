import { goTypes as t, type GoStructType, type GoType } from '../../lib/go/json-decoding.js';
import { conditionGoType, kindGoType } from '../../schemas/object-meta-go-type.js';

/** intstr.IntOrString: a JSON string is its string form, anything else is read as an int32 (its UnmarshalJSON). */
const intOrStringGoType: GoType = t.unmarshaler('intstr.IntOrString', (v) => (typeof v === 'string' ? t.string() : t.int32));

/** core/v1 Service as kube's decoder sees it. */
export const serviceGoType: GoStructType = kindGoType('v1.Service', {
  spec: t.struct('v1.ServiceSpec', {
    ports: t.slice(
      t.struct('v1.ServicePort', {
        name: t.string(),
        protocol: t.string('v1.Protocol'),
        appProtocol: t.string(),
        port: t.int32,
        targetPort: intOrStringGoType,
        nodePort: t.int32,
      }),
    ),
    selector: t.map(t.string()),
    clusterIP: t.string(),
    clusterIPs: t.slice(t.string()),
    type: t.string('v1.ServiceType'),
    externalIPs: t.slice(t.string()),
    sessionAffinity: t.string('v1.ServiceAffinity'),
    loadBalancerIP: t.string(),
    loadBalancerSourceRanges: t.slice(t.string()),
    externalName: t.string(),
    externalTrafficPolicy: t.string('v1.ServiceExternalTrafficPolicy'),
    healthCheckNodePort: t.int32,
    publishNotReadyAddresses: t.bool,
    sessionAffinityConfig: t.struct('v1.SessionAffinityConfig', {
      clientIP: t.struct('v1.ClientIPConfig', { timeoutSeconds: t.int32 }),
    }),
    ipFamilies: t.slice(t.string('v1.IPFamily')),
    ipFamilyPolicy: t.string('v1.IPFamilyPolicy'),
    allocateLoadBalancerNodePorts: t.bool,
    loadBalancerClass: t.string(),
    internalTrafficPolicy: t.string('v1.ServiceInternalTrafficPolicy'),
    trafficDistribution: t.string(),
  }),
  status: t.struct('v1.ServiceStatus', {
    loadBalancer: t.struct('v1.LoadBalancerStatus', {
      ingress: t.slice(
        t.struct('v1.LoadBalancerIngress', {
          ip: t.string(),
          hostname: t.string(),
          ipMode: t.string('v1.LoadBalancerIPMode'),
          ports: t.slice(t.struct('v1.PortStatus', { port: t.int32, protocol: t.string('v1.Protocol'), error: t.string() })),
        }),
      ),
    }),
    conditions: t.slice(conditionGoType),
  }),
});
