/** The info object of kapi's OpenAPI documents. */
export interface DocumentInfo {
  title: string;
  version: string;
}

/** The security scheme kube-apiserver declares in its OpenAPI documents. */
export const bearerTokenScheme = { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' };
