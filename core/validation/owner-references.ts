import type { StatusCause } from '../contracts/status.js';
import { fieldErrors } from '../contracts/api-error.js';

/** apiVersion split as schema.ParseGroupVersion does (both parts '' when malformed). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion === '/' ? [''] : apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] };
  return parts.length === 2 ? { group: parts[0], version: parts[1] } : { group: '', version: '' };
}

/** An owner reference with metav1.OwnerReference's fields, in its JSON order (how kube prints bad values). */
function canonical(entry: unknown): Record<string, unknown> {
  const ref = (entry ?? {}) as Record<string, unknown>;
  const str = (key: string): string => (typeof ref[key] === 'string' ? (ref[key] as string) : '');
  return {
    apiVersion: str('apiVersion'),
    kind: str('kind'),
    name: str('name'),
    uid: str('uid'),
    ...(typeof ref.controller === 'boolean' ? { controller: ref.controller } : {}),
    ...(typeof ref.blockOwnerDeletion === 'boolean' ? { blockOwnerDeletion: ref.blockOwnerDeletion } : {}),
  };
}

/**
 * apimachinery ValidateOwnerReferences: apiVersion (with a version), kind, name and uid are set,
 * core/v1 Events are never owners, and at most one reference is the controller.
 * Like kube, the errors name the list (`metadata.ownerReferences.uid`), not the entry.
 */
export function validateOwnerReferences(ownerReferences: unknown[] | undefined, field: string): StatusCause[] {
  const refs = (ownerReferences ?? []).map(canonical);
  const causes: StatusCause[] = [];
  let firstController = '';
  for (const ref of refs) {
    const gv = parseGroupVersion(ref.apiVersion as string);
    if (gv.version === '') causes.push(fieldErrors.invalid(`${field}.apiVersion`, ref.apiVersion, 'version must not be empty'));
    for (const key of ['kind', 'name', 'uid']) {
      if (ref[key] === '') causes.push(fieldErrors.invalid(`${field}.${key}`, '', 'must not be empty'));
    }
    if (gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
      causes.push(fieldErrors.invalid(field, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const name = `${ref.kind}/${ref.name}`;
      if (firstController === '') firstController = name;
      else {
        causes.push(
          fieldErrors.invalid(
            field,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
          ),
        );
      }
    }
  }
  return causes;
}
