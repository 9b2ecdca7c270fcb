import { errors, type AdmissionAttributes, type AdmissionPlugin } from '../../index.js';

interface WidgetSpec {
  color?: string;
}

/**
 * An admission plugin is one class: it declares what it handles, mutates in `admit` and checks in `validate`.
 * This one labels each new widget with its color (so `kubectl get widgets -l example.com/color=blue` works) and
 * refuses the color "forbidden".
 */
export class WidgetPolicy implements AdmissionPlugin {
  readonly name = 'WidgetPolicy';
  readonly operations = ['CREATE', 'UPDATE'] as const;
  readonly rules = [{ apiGroups: ['example.com'], resources: ['widgets'] }];
  readonly sideEffects = 'None';

  admit(attrs: AdmissionAttributes): void {
    const color = (attrs.object.spec as WidgetSpec | undefined)?.color;
    if (attrs.operation !== 'CREATE' || !color) return;
    const meta = (attrs.object.metadata ??= {});
    meta.labels = { ...meta.labels, 'example.com/color': color };
  }

  validate(attrs: AdmissionAttributes): void {
    if ((attrs.object.spec as WidgetSpec | undefined)?.color === 'forbidden') {
      throw errors.forbidden({ group: 'example.com', resource: 'widgets', name: attrs.name }, 'spec.color "forbidden" is not allowed');
    }
  }
}
