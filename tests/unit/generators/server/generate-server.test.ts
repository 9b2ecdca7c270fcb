// kapi gen server's generator: the project's files from the input alone (same input, same bytes), the deploy/
// manifests naming the input's address, port and CA, and bad input refused with what is wrong.
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { generateServer, GenServerError, type GenServerInput } from '../../../../generators/server/index.js';

const input: GenServerInput = {
  name: 'shop',
  group: 'shop.example.com',
  kinds: ['Order', 'Box'],
  kapi: 'file:/tmp/kapi-0.1.0.tgz',
  dependencies: { 'better-sqlite3': '1.0.0', yaml: '2.0.0', typescript: '5.0.0', '@types/node': '20.0.0', '@types/better-sqlite3': '7.0.0', ava: '6.0.0' },
  caCertPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  address: '192.0.2.7',
  port: 18443,
};

const file = (path: string, i: GenServerInput = input) => generateServer(i).find((f) => f.path === path)!.text;

test('the same input gives the same files, byte for byte', (t) => {
  t.deepEqual(generateServer({ ...input }), generateServer(structuredClone(input)));
});

test('the project: its files, in path order', (t) => {
  t.deepEqual(
    generateServer(input).map((f) => f.path),
    [
      '.gitignore',
      'README.md',
      'deploy/00-namespace.yaml',
      'deploy/10-auth-delegation.yaml',
      'deploy/20-service.yaml',
      'deploy/30-apiservice.yaml',
      'deploy/40-viewer-role.yaml',
      'package.json',
      'src/admission.ts',
      'src/crds.ts',
      'src/main.ts',
      'src/resource-events.ts',
      'src/resources.ts',
      'src/server-info.ts',
      'src/sqlite-storage.ts',
      'src/types.ts',
      'test/server.test.ts',
      'tsconfig.json',
    ],
  );
});

test('package.json depends on the given kapi and on the versions given, and builds, starts and tests', (t) => {
  const pkg = JSON.parse(file('package.json'));
  t.deepEqual(pkg.dependencies, { 'better-sqlite3': '1.0.0', kapi: 'file:/tmp/kapi-0.1.0.tgz', yaml: '2.0.0' });
  t.deepEqual(pkg.devDependencies, { '@types/better-sqlite3': '7.0.0', '@types/node': '20.0.0', ava: '6.0.0', typescript: '5.0.0' });
  t.deepEqual(Object.keys(pkg.scripts), ['build', 'start', 'test']);
  t.is(pkg.type, 'module');
});

test('src/types.ts: a root type with markers per kind and the computed ServerInfo, in the group and version', (t) => {
  const types = file('src/types.ts');
  t.regex(types, /^\/\/ \+groupName=shop\.example\.com\n\/\/ \+versionName=v1alpha1\n/m);
  for (const [kind, plural, scope] of [['Order', 'orders', 'Namespaced'], ['Box', 'boxes', 'Namespaced'], ['ServerInfo', 'serverinfos', 'Cluster']]) {
    t.regex(types, new RegExp(`// \\+kubebuilder:object:root=true\\n// \\+kubebuilder:resource:path=${plural},scope=${scope}\\n(//.*\\n)*export interface ${kind} \\{`));
  }
});

test('src/types.ts: the stored kinds have a status subresource, the computed one has none', (t) => {
  const types = file('src/types.ts');
  for (const kind of ['Order', 'Box']) t.regex(types, new RegExp(`// \\+kubebuilder:subresource:status\\n(//.*\\n)*export interface ${kind} \\{[^}]*status\\?: ${kind}Status;`));
  t.notRegex(types, /\+kubebuilder:subresource:status\n(\/\/.*\n)*export interface ServerInfo \{/);
});

test('deploy/: the Endpoints name the address and port, the APIService has the CA as caBundle', (t) => {
  const docs = (path: string) => parseAllDocuments(file(path)).map((d) => d.toJS());
  const [service, endpoints] = docs('deploy/20-service.yaml');
  t.deepEqual(service.spec.ports, [{ port: 443, targetPort: 18443 }]);
  t.deepEqual(endpoints.subsets, [{ addresses: [{ ip: '192.0.2.7' }], ports: [{ port: 18443 }] }]);
  const [apiService] = docs('deploy/30-apiservice.yaml');
  t.is(apiService.metadata.name, 'v1alpha1.shop.example.com');
  t.deepEqual(apiService.spec.service, { namespace: 'shop', name: 'api', port: 443 });
  t.is(Buffer.from(apiService.spec.caBundle, 'base64').toString(), input.caCertPem);
  const subjects = docs('deploy/10-auth-delegation.yaml').slice(1).map((d) => [d.roleRef.name, d.subjects]);
  t.deepEqual(subjects, [
    ['system:auth-delegator', [{ kind: 'ServiceAccount', name: 'shop', namespace: 'shop' }]],
    ['extension-apiserver-authentication-reader', [{ kind: 'ServiceAccount', name: 'shop', namespace: 'shop' }]],
  ]);
  t.deepEqual(docs('deploy/40-viewer-role.yaml')[0].rules, [{ apiGroups: ['shop.example.com'], resources: ['orders', 'boxes', 'serverinfos'], verbs: ['get', 'list', 'watch'] }]);
});

const badInputs: [string, Partial<GenServerInput>, string][] = [
  ['an upper-case name', { name: 'Shop' }, 'invalid name "Shop": a lowercase RFC 1123 label'],
  ['a name longer than a label', { name: 'a'.repeat(64) }, `invalid name "${'a'.repeat(64)}"`],
  ['a group without a dot', { group: 'shop' }, 'invalid group "shop": a lowercase RFC 1123 subdomain with at least one dot'],
  ['a group with an underscore', { group: 'my_shop.example.com' }, 'invalid group "my_shop.example.com"'],
  ['a bad version', { version: 'one' }, 'invalid version "one"'],
  ['no kinds', { kinds: [] }, 'at least one kind is needed'],
  ['a lower-case kind', { kinds: ['order'] }, 'invalid kind "order": an UpperCamelCase name'],
  ['a list kind', { kinds: ['OrderList'] }, 'invalid kind "OrderList": <Kind>List is the name of a kind\'s list'],
  ['the computed kind', { kinds: ['ServerInfo'] }, 'invalid kind "ServerInfo": the name of the computed example resource'],
  ['two kinds of one plural', { kinds: ['Order', 'Order'] }, 'kinds "Order" and "Order" have the same resource name orders'],
  ['a loopback address', { address: '127.0.0.1' }, 'invalid address "127.0.0.1"'],
  ['a host name as address', { address: 'example.com' }, 'invalid address "example.com"'],
  ['port 0', { port: 0 }, 'invalid port 0: 1 to 65535'],
];

for (const [what, change, message] of badInputs) {
  test(`refuses ${what}`, (t) => {
    const err = t.throws(() => generateServer({ ...input, ...change }), { instanceOf: GenServerError });
    t.true(err.message.startsWith(message), err.message);
  });
}
