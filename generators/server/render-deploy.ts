import type { ServerModel } from './server-model.js';

export interface DeployFile {
  /** Relative to deploy/. */
  name: string;
  text: string;
}

/** deploy/: the manifests registering the server at a front, applied in file order (`kubectl apply -f deploy/`). */
export function renderDeploy(m: ServerModel): DeployFile[] {
  const resources = [...m.kinds, m.info].map((k) => k.plural).join(', ');
  return [
    {
      name: '00-namespace.yaml',
      text: `# The namespace of the server's ServiceAccount, Service and Endpoints at the front.
apiVersion: v1
kind: Namespace
metadata:
  name: ${m.name}
`,
    },
    {
      name: '10-auth-delegation.yaml',
      text: `# The server's identity at the front (a kubeconfig with a token of this ServiceAccount is its FRONT_KUBECONFIG),
# allowed what an extension API server needs there: to review tokens and access (system:auth-delegator) and to read
# the authentication configuration the front publishes (extension-apiserver-authentication-reader, in kube-system).
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${m.name}
  namespace: ${m.name}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: ${m.name}:system:auth-delegator
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:auth-delegator
subjects:
- kind: ServiceAccount
  name: ${m.name}
  namespace: ${m.name}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: ${m.name}-auth-reader
  namespace: kube-system
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: extension-apiserver-authentication-reader
subjects:
- kind: ServiceAccount
  name: ${m.name}
  namespace: ${m.name}
`,
    },
    {
      name: '20-service.yaml',
      text: `# Where the front finds the server: a Service without a selector and its Endpoints, the address and port given to
# kapi gen server (--address, --port). Endpoints may not name a loopback address.
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: ${m.name}
spec:
  ports:
  - port: 443
    targetPort: ${m.port}
---
apiVersion: v1
kind: Endpoints
metadata:
  name: api
  namespace: ${m.name}
subsets:
- addresses:
  - ip: ${m.address}
  ports:
  - port: ${m.port}
`,
    },
    {
      name: '30-apiservice.yaml',
      text: `# ${m.group}/${m.version} is served by the Service ${m.name}/api. The front verifies the server's certificate (pki/apiserver.crt)
# for api.${m.name}.svc against caBundle: the base64 of the CA that signed it (pki/ca.crt).
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: ${m.version}.${m.group}
spec:
  group: ${m.group}
  version: ${m.version}
  service:
    namespace: ${m.name}
    name: api
    port: 443
  caBundle: ${Buffer.from(m.caCertPem).toString('base64')}
  groupPriorityMinimum: 1000
  versionPriority: 15
`,
    },
    {
      name: '40-viewer-role.yaml',
      text: `# Reading (and watching) the server's resources, aggregated into the front's view, edit and admin ClusterRoles:
# whoever holds one of those may read them through the front.
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ${m.name}:viewer
  labels:
    rbac.authorization.k8s.io/aggregate-to-view: "true"
    rbac.authorization.k8s.io/aggregate-to-edit: "true"
    rbac.authorization.k8s.io/aggregate-to-admin: "true"
rules:
- apiGroups: [${m.group}]
  resources: [${resources}]
  verbs: [get, list, watch]
`,
    },
  ];
}
