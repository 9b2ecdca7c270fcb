import type { ServerModel } from './server-model.js';

/** src/admission.ts: a typed admission plugin stub for the kinds, mutating and validating. */
export function renderAdmission(m: ServerModel): string {
  const kinds = m.kinds.map((k) => k.kind);
  const resources = m.kinds.map((k) => `'${k.plural}'`).join(', ');
  return `/**
 * Admission for the project's kinds, a stub to replace with your own rules: a mutating plugin labels every new object
 * with the server that admitted it, a validating one refuses the message "forbidden" (422, as kube's own validation).
 * Both see the object typed, as the kinds of src/types.ts.
 */
import { admissionInvalid, defineAdmissionPlugin, fieldErrors, Tokens, type KubeObject, type Module } from 'kapi';
import { group } from './crds.js';
import type { ${kinds.join(', ')} } from './types.js';

type Admitted = KubeObject & (${kinds.join(' | ')});
const rules = [{ apiGroups: [group], resources: [${resources}] }];
export const admittedByLabel = group + '/admitted-by';

/** Mutating: labels each new object \`<group>/admitted-by: ${m.name}\`. */
export const admittedBy = defineAdmissionPlugin<Admitted>({
  name: 'AdmittedBy',
  operations: ['CREATE'],
  rules,
  sideEffects: 'None',
  admit({ object }) {
    object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, [admittedByLabel]: '${m.name}' } };
  },
});

/** Validating: refuses spec.message "forbidden" with a field error. */
export const messagePolicy = defineAdmissionPlugin<Admitted>({
  name: 'MessagePolicy',
  operations: ['CREATE', 'UPDATE'],
  rules,
  sideEffects: 'None',
  validate(attrs) {
    if (attrs.object.spec.message === 'forbidden') throw admissionInvalid(attrs, [fieldErrors.forbidden('spec.message', 'this message is not allowed')]);
  },
});

/** The plugins' names, for ServerConfig.admissionPlugins (which enables and orders plugins). */
export const pluginNames = [admittedBy.name, messagePolicy.name];

/** The module registering both. */
export const admission: Module = (c) => {
  for (const plugin of [admittedBy, messagePolicy]) c.register(Tokens.AdmissionPlugin, { useValue: plugin });
};
`;
}

/** src/resources.ts: the modules serving each kind from SQLite, and the computed resource. */
export function renderResources(m: ServerModel): string {
  const kinds = m.kinds.map((k) => `    resourceModule({ ...crdResource('${k.plural}'), storage: sqliteStorage(db, group, '${k.plural}') }),\n`).join('');
  return `import type Database from 'better-sqlite3';
import { resourceModule, type Module } from 'kapi';
import { crdResource, group } from './crds.js';
import { serverInfoStorage } from './server-info.js';
import { sqliteStorage } from './sqlite-storage.js';

/** The modules serving the project's resources: its kinds from the SQLite database \`db\`, and ${m.info.plural}. */
export function resources(db: Database.Database): Module[] {
  return [
${kinds}    resourceModule({ ...crdResource('${m.info.plural}'), storage: serverInfoStorage(db) }),
  ];
}
`;
}

/** src/main.ts: the server, aggregated behind a front (the default) or standalone. */
export function renderMain(m: ServerModel): string {
  return `/**
 * ${m.name}: serves ${m.group}/${m.version} over HTTPS, with the certificate in pki/ and the objects in
 * DATA_DIR/${m.name}.db.
 *
 *   npm start                  an aggregated extension API server behind a front (kube-apiserver or kapi serve),
 *                              registered there by deploy/ (kubectl apply -f deploy/)
 *   npm start -- --standalone  a server of its own, for the admin of DATA_DIR/kubeconfig
 *
 * Aggregated, it trusts the front as an extension API server does: the front's proxy identity headers and client CA
 * as the front publishes them in kube-system/extension-apiserver-authentication, bearer tokens reviewed at the front
 * (TokenReview), and every request authorized by the front (SubjectAccessReview). It reaches the front with
 * FRONT_KUBECONFIG (default: KUBECONFIG, then ~/.kube/config), whose user needs the bindings of
 * deploy/10-auth-delegation.yaml.
 *
 * Environment: PORT (default ${m.port}), BIND_ADDRESS (default 0.0.0.0; standalone 127.0.0.1), DATA_DIR (default data),
 * FRONT_KUBECONFIG.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  adminUser,
  clientUrl,
  createApiServer,
  defaultModules,
  delegatedAuthentication,
  delegatedAuthorization,
  ensureAdminToken,
  rbacAuthorization,
  readKubeconfigClient,
  staticTokenAuth,
  writeKubeconfig,
  type ApiServerOptions,
} from 'kapi';
import { admission, pluginNames } from './admission.js';
import { openDatabase } from './sqlite-storage.js';
import { resources } from './resources.js';

const { values } = parseArgs({ options: { standalone: { type: 'boolean', default: false } } });
const dataDir = process.env.DATA_DIR ?? 'data';
mkdirSync(dataDir, { recursive: true });
const pki = new URL('../../pki/', import.meta.url);
const tls = { cert: readFileSync(new URL('apiserver.crt', pki), 'utf8'), key: readFileSync(new URL('apiserver.key', pki), 'utf8') };
const own = [...resources(openDatabase(join(dataDir, '${m.name}.db'))), admission];

/** A server of its own: storage in memory for the built-in kinds, its admin's \`token\` (DATA_DIR/admin-token), RBAC. */
function standalone(token: string): ApiServerOptions {
  return { modules: [...defaultModules({ storage: 'memory', authModules: [staticTokenAuth([{ token, user: adminUser }]), rbacAuthorization()] }), ...own] };
}

/** Behind a front: authentication and authorization delegated to it, as k8s.io/apiserver's delegating options. */
async function aggregated(): Promise<ApiServerOptions> {
  const kubeconfig = process.env.FRONT_KUBECONFIG ?? process.env.KUBECONFIG?.split(':')[0] ?? join(homedir(), '.kube', 'config');
  const front = readKubeconfigClient(kubeconfig);
  const delegation = await delegatedAuthentication({ client: front });
  // k8s.io/apiserver's delegating authorization defaults
  const authorization = delegatedAuthorization({
    client: front,
    authorizedTtlMs: 10_000,
    unauthorizedTtlMs: 10_000,
    alwaysAllowPaths: ['/healthz', '/readyz', '/livez'],
    alwaysAllowGroups: ['system:masters'],
  });
  return {
    // kube's admission plugins but NamespaceLifecycle (namespaces are the front's, which this server does not follow), and ours
    config: { admissionPlugins: ['MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', ...pluginNames] },
    modules: [
      ...defaultModules({
        storage: 'memory',
        // the published authentication first (front-proxy headers, client certificates), TokenReview at the front last
        authModules: [...(delegation.published ? [delegation.published.module] : []), authorization],
        tokenWebhook: delegation.tokenWebhook,
      }),
      ...own,
    ],
  };
}

const adminToken = values.standalone ? await ensureAdminToken(dataDir) : undefined;
const server = createApiServer(adminToken !== undefined ? standalone(adminToken) : await aggregated());
const { host, port, url } = await server.listen({
  port: Number(process.env.PORT ?? ${m.port}),
  host: process.env.BIND_ADDRESS ?? (adminToken !== undefined ? '127.0.0.1' : '0.0.0.0'),
  tls,
});
if (adminToken !== undefined) {
  const caCertPem = readFileSync(new URL('ca.crt', pki), 'utf8');
  await writeKubeconfig(join(dataDir, 'kubeconfig'), { server: clientUrl(host, port), caCertPem, token: adminToken, clusterName: '${m.name}', userName: 'admin', contextName: '${m.name}' });
}
console.log('${m.name} serving on ' + url);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
`;
}
