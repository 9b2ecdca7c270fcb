import { errors, type ApiError, type StatusCause } from './api-error.js';
import type { AdmissionAttributes } from './admission-attributes.js';

/**
 * The error an admission plugin refuses an invalid object with, as kube's plugins build it
 * (`NewInvalid(a.GetKind().GroupKind(), a.GetName(), errs)`): 422 `Widget.example.com "w1" is invalid: …`, one cause
 * per field error (build them with `fieldErrors`).
 */
export function admissionInvalid(attrs: AdmissionAttributes, causes: StatusCause[]): ApiError {
  return errors.invalid({ group: attrs.kind.group, kind: attrs.kind.kind, resource: attrs.resource.resource, name: attrs.name }, causes);
}
