import type { AdmissionAttributes } from '../../core/contracts/admission-attributes.js';

/**
 * The admission attributes of creating widget `w` in namespace `ns` by alice (group dev), in example.com `version`;
 * `over` replaces any field (the object too).
 */
export function widgetAttributes(over: Partial<AdmissionAttributes> = {}, version = 'v1'): AdmissionAttributes {
  return {
    operation: 'CREATE',
    object: { apiVersion: `example.com/${version}`, kind: 'Widget', metadata: { name: 'w', namespace: 'ns', labels: { tier: 'web' } } },
    kind: { group: 'example.com', version, kind: 'Widget' },
    resource: { group: 'example.com', version, resource: 'widgets' },
    subresource: '',
    namespace: 'ns',
    name: 'w',
    userInfo: { username: 'alice', groups: ['dev'] },
    dryRun: false,
    options: {},
    warnings: [],
    ...over,
  };
}
