/**
 * A server with custom admission plugins (widget-policy.ts): in-memory storage, the widgets CRD installed at start,
 * no authentication. The plugins are made with defineAdmissionPlugin and registered by a module.
 *   npm run build && node dist/examples/admission-plugin/server.js
 *   kubectl --server http://127.0.0.1:8080 -n default apply -f examples/crd-only/widget.yaml
 *   kubectl --server http://127.0.0.1:8080 -n default get widgets -l example.com/color=blue
 */
import { fileURLToPath } from 'node:url';
import { createApiServer, defaultModules } from '../../index.js';
import { widgetPolicy } from './widget-policy.js';

const crd = fileURLToPath(new URL('../../../examples/crd-only/widgets-crd.yaml', import.meta.url));

const server = createApiServer({
  modules: [...defaultModules({ storage: 'memory', dataDir: '.kapi', crdPaths: [crd], authModules: [] }), widgetPolicy],
});
const { url } = await server.listen({ port: Number(process.env.PORT ?? 8080), host: '127.0.0.1' });
console.log(`kapi (admission-plugin example) serving on ${url}`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
