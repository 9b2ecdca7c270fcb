import { errors } from './api-error.js';

/** A Service port as webhooks and APIServices name it (clientConfig.service, APIService spec.service). */
export interface ServiceReference {
  namespace: string;
  name: string;
  port: number;
}

/**
 * Where a Service is reached (k8s.io/apiserver's webhook ServiceResolver): kapi dials what it returns for a webhook's
 * or a conversion webhook's `clientConfig.service`. The services module registers one (`Tokens.ServiceResolver`).
 */
export interface ServiceResolver {
  /** An `https://host:port` URL that reaches the Service's port (shared: read it, never change it); throws kube's ApiError when there is none. */
  resolveEndpoint(ref: ServiceReference): Promise<URL>;
}

/** The resolver of a server that serves no Services: every one is missing, in the words of kube's Service lister. */
export const noServiceResolver: ServiceResolver = {
  resolveEndpoint: (ref) => Promise.reject(errors.notFound({ group: '', resource: 'service', name: ref.name })),
};
