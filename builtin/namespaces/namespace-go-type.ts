import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { goTime, kindGoType } from '../../schemas/object-meta-go-type.js';

/** core/v1 Namespace as kube's decoder sees it. */
export const namespaceGoType: GoStructType = kindGoType('v1.Namespace', {
  spec: t.struct('v1.NamespaceSpec', { finalizers: t.slice(t.string('v1.FinalizerName')) }),
  status: t.struct('v1.NamespaceStatus', {
    phase: t.string('v1.NamespacePhase'),
    conditions: t.slice(
      t.struct('v1.NamespaceCondition', {
        type: t.string('v1.NamespaceConditionType'),
        status: t.string('v1.ConditionStatus'),
        lastTransitionTime: goTime,
        reason: t.string(),
        message: t.string(),
      }),
    ),
  }),
});
