import type { AdmissionAttributes } from './admission-attributes.js';
import { isQualifiedName } from '../../lib/k8s/names.js';

/**
 * kube's Attributes.AddAnnotation, for admission plugins: records an annotation on the request's audit event. The key
 * must be a qualified name (`my-plugin.example.com/decision`), and a value once set is not overwritten (kube logs and
 * drops such annotations).
 */
export function addAuditAnnotation(attrs: AdmissionAttributes, key: string, value: string): void {
  if (isQualifiedName(key).length) return;
  const annotations = (attrs.auditAnnotations ??= {});
  if (!Object.hasOwn(annotations, key)) annotations[key] = value;
}
