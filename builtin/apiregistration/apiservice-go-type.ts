import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { goTime, kindGoType } from '../../schemas/object-meta-go-type.js';

/** apiregistration.k8s.io/v1 APIService as kube's decoder sees it (k8s.io/kube-aggregator apiregistration/v1). */
export const apiServiceGoType: GoStructType = kindGoType('v1.APIService', {
  spec: t.struct('v1.APIServiceSpec', {
    service: t.struct('v1.ServiceReference', { namespace: t.string(), name: t.string(), port: t.int32 }),
    group: t.string(),
    version: t.string(),
    insecureSkipTLSVerify: t.bool,
    caBundle: t.bytes,
    groupPriorityMinimum: t.int32,
    versionPriority: t.int32,
  }),
  status: t.struct('v1.APIServiceStatus', {
    conditions: t.slice(
      t.struct('v1.APIServiceCondition', {
        type: t.string('v1.APIServiceConditionType'),
        status: t.string('v1.ConditionStatus'),
        lastTransitionTime: goTime,
        reason: t.string(),
        message: t.string(),
      }),
    ),
  }),
});
