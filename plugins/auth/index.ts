export { ensurePki, type Pki } from './pki.js';
export { ensureAdminToken, adminUser } from './admin-token.js';
export { StaticTokenAuthenticator, staticTokenAuth, type StaticToken } from './static-token-authenticator.js';
export { AlwaysAllowAuthorizer, alwaysAllow } from './always-allow-authorizer.js';
export { AlwaysDenyAuthorizer, alwaysDeny } from './always-deny-authorizer.js';
export { RbacAuthorizer, rbacAuthorization } from './rbac-authorizer.js';
export { writeKubeconfig, clientUrl, type KubeconfigOptions } from './kubeconfig.js';
export { ensureServiceAccountSigningKey, readServiceAccountSigningKey, readServiceAccountPublicKeys } from './service-account-keys.js';
export { ServiceAccountTokenAuthenticator, serviceAccountTokenAuth } from './service-account-token-authenticator.js';
