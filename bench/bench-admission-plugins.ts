import { Tokens, type AdmissionPlugin, type Module } from '../index.js';

/** `count` trivial admission plugins on widgets: each reads the object in `admit` and in `validate`. */
export function benchAdmissionPlugins(count: number): Module {
  return (c) => {
    for (let i = 0; i < count; i++) {
      const plugin: AdmissionPlugin = {
        name: `bench-${i}`,
        operations: ['CREATE'],
        rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }],
        sideEffects: 'None',
        admit: (attrs) => void attrs.object.metadata?.labels,
        validate: (attrs) => void attrs.object.spec,
      };
      c.register(Tokens.AdmissionPlugin, { useValue: plugin });
    }
  };
}
