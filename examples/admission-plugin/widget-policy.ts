import { admissionInvalid, defineAdmissionPlugin, fieldErrors, Tokens, type KubeObject, type Module } from '../../index.js';
import type { WidgetSpec } from '../crd-only/generated/widget.v1.js';

/**
 * What the rules below select: the spec typed by `kapi gen types` from the CRD (examples/crd-only/generated), the
 * object as admission sees it (mutating plugins run before it is validated).
 */
interface Widget extends KubeObject {
  spec?: WidgetSpec;
}
const widgets = [{ apiGroups: ['example.com'], resources: ['widgets'] }];

/** Mutating: labels each new widget with its color, so `kubectl get widgets -l example.com/color=blue` works. */
export const colorLabel = defineAdmissionPlugin<Widget>({
  name: 'ColorLabel',
  operations: ['CREATE'],
  rules: widgets,
  sideEffects: 'None',
  admit({ object }) {
    const color = object.spec?.color;
    if (color) object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, 'example.com/color': color } };
  },
});

/** Validating: refuses the color "forbidden" with a field error (422, like kube's own validation). */
export const allowedColors = defineAdmissionPlugin<Widget>({
  name: 'AllowedColors',
  operations: ['CREATE', 'UPDATE'],
  rules: widgets,
  sideEffects: 'None',
  validate(attrs) {
    if (attrs.object.spec?.color === 'forbidden') throw admissionInvalid(attrs, [fieldErrors.forbidden('spec.color', 'this color is not allowed')]);
  },
});

/** The module registering both, in this order. */
export const widgetPolicy: Module = (c) => {
  for (const plugin of [colorLabel, allowedColors]) c.register(Tokens.AdmissionPlugin, { useValue: plugin });
};
