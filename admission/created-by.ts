import type { AdmissionAttributes } from '../core/contracts/admission-attributes.js';
import type { AdmissionPlugin } from '../core/contracts/admission-plugin.js';

export const createdByAnnotation = 'kapi.dev/created-by';

/**
 * Records who created each object: sets the `kapi.dev/created-by` annotation to the creating user's name, and keeps it
 * as it was on updates (a client can neither forge nor remove it). Off unless enabled by name (`CreatedBy`).
 */
export class CreatedBy implements AdmissionPlugin {
  readonly name = 'CreatedBy';
  readonly operations = ['CREATE', 'UPDATE'] as const;
  readonly rules = [{ apiGroups: ['*'], resources: ['*'] }];
  readonly sideEffects = 'None';
  readonly enabledByDefault = false;

  admit(attrs: AdmissionAttributes): void {
    const creator = attrs.operation === 'CREATE' ? attrs.userInfo.username : attrs.oldObject?.metadata?.annotations?.[createdByAnnotation];
    const annotations = { ...attrs.object.metadata?.annotations };
    delete annotations[createdByAnnotation];
    // An object created before the plugin was enabled has no creator to keep.
    if (creator !== undefined) annotations[createdByAnnotation] = creator;
    const meta = (attrs.object.metadata ??= {});
    if (Object.keys(annotations).length) meta.annotations = annotations;
    else delete meta.annotations;
  }
}
