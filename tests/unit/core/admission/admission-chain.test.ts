import test from 'ava';
import { selectAdmissionPlugins } from '../../../../core/admission/admission-chain.js';
import { pluginMatches } from '../../../../core/admission/plugin-matching.js';
import type { AdmissionAttributes } from '../../../../core/contracts/admission-attributes.js';
import type { AdmissionPlugin, AdmissionRule } from '../../../../core/contracts/admission-plugin.js';

const plugin = (name: string, rules: AdmissionRule[] = [], enabledByDefault?: boolean): AdmissionPlugin => ({
  name,
  operations: ['CREATE'],
  rules,
  sideEffects: 'None',
  ...(enabledByDefault === undefined ? {} : { enabledByDefault }),
});

const attrs = (group: string, resource: string, subresource = '', operation: AdmissionAttributes['operation'] = 'CREATE') =>
  ({ operation, resource: { group, version: 'v1', resource }, subresource }) as AdmissionAttributes;

test('resource patterns match as kube rules do', (t) => {
  const match = (resources: string[], a: AdmissionAttributes, apiGroups = ['*']) => pluginMatches(plugin('p', [{ apiGroups, resources }]), a);
  t.true(match(['widgets'], attrs('example.com', 'widgets')));
  t.false(match(['widgets'], attrs('example.com', 'widgets', 'status')));
  t.true(match(['widgets/status'], attrs('example.com', 'widgets', 'status')));
  t.true(match(['*'], attrs('example.com', 'gizmos')));
  t.false(match(['*'], attrs('example.com', 'gizmos', 'scale')));
  t.true(match(['*/scale'], attrs('example.com', 'gizmos', 'scale')));
  t.true(match(['widgets/*'], attrs('example.com', 'widgets', 'status')));
  t.true(match(['*/*'], attrs('', 'namespaces')));
  t.false(match(['*'], attrs('example.com', 'widgets'), ['']));
  t.false(match(['*'], attrs('example.com', 'widgets', '', 'DELETE')), 'operation not declared');
});

test('without configuration: every plugin enabled by default, in registration order', (t) => {
  const all = [plugin('a'), plugin('off', [], false), plugin('b')];
  t.deepEqual(selectAdmissionPlugins(all).map((p) => p.name), ['a', 'b']);
  t.deepEqual(selectAdmissionPlugins(all, ['off', 'a']).map((p) => p.name), ['off', 'a']);
  t.deepEqual(selectAdmissionPlugins(all, []), []);
});

test('unknown or duplicate names are configuration errors', (t) => {
  t.throws(() => selectAdmissionPlugins([plugin('a')], ['b']), { message: 'admission plugin "b" is unknown (registered: a)' });
  t.throws(() => selectAdmissionPlugins([plugin('a'), plugin('a')]), { message: 'admission plugin "a" is registered twice' });
});
