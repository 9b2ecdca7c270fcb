/**
 * A CRD-only API server in a few lines: in-memory storage, the widgets CRD installed at start, no authentication.
 *   npm run build && node dist/examples/crd-only/server.js
 *   kubectl --server http://127.0.0.1:8080 get widgets -A
 */
import { fileURLToPath } from 'node:url';
import { createApiServer, defaultModules } from '../../index.js';

const crd = fileURLToPath(new URL('../../../examples/crd-only/widgets-crd.yaml', import.meta.url));
const server = createApiServer({ modules: defaultModules({ storage: 'memory', crdPaths: [crd] }) });
const { url } = await server.listen({ port: Number(process.env.PORT ?? 8080), host: '127.0.0.1' });
console.log(`kapi (crd-only example) serving on ${url}`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
