export { ensurePki, type Pki } from './pki.js';
export { ensureAdminToken, adminUser } from './admin-token.js';
export { StaticTokenAuthenticator, staticTokenAuth, type StaticToken } from './static-token-authenticator.js';
export { AlwaysAllowAuthorizer, alwaysAllow } from './always-allow-authorizer.js';
export { writeKubeconfig, clientUrl, type KubeconfigOptions } from './kubeconfig.js';
