import type { KubeObject } from './resource-type.js';
import type { AdmissionPlugin } from './admission-plugin.js';

/**
 * Declares an admission plugin typed by the objects its rules select (see AdmissionPlugin for what `T` promises):
 *
 *   defineAdmissionPlugin<Widget>({ name: 'WidgetColor', operations: ['CREATE'], rules, sideEffects: 'None', admit({ object }) { … } })
 *
 * The parameter's type gives the literals their types, so `operations` and `sideEffects` need no `as const`, and a
 * misspelt member is an error. Register the result with `c.register(Tokens.AdmissionPlugin, { useValue: plugin })`.
 */
export function defineAdmissionPlugin<T extends KubeObject = KubeObject>(plugin: AdmissionPlugin<T>): AdmissionPlugin<T> {
  return plugin;
}
