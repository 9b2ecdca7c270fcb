/**
 * Resources served from their own storage: a computed clock (clocks.ts: get, list, watch) and notes kept in a SQLite
 * table (notes.ts: every verb but watch), each with a `summary` subresource of its own kind. In-memory storage for
 * everything else, no authentication. Notes are kept in NOTES_DB (default: in memory).
 *   npm run build && node dist/examples/custom-storage/server.js
 *   kubectl --server http://127.0.0.1:8080 get clocks -w
 *   kubectl --server http://127.0.0.1:8080 -n default get notes
 *   kubectl --server http://127.0.0.1:8080 get --raw /apis/example.com/v1/clocks/now/summary
 */
import { createApiServer, defaultModules } from '../../index.js';
import { clocks } from './clocks.js';
import { notes } from './notes.js';

const server = createApiServer({
  modules: [...defaultModules({ storage: 'memory', dataDir: '.kapi', authModules: [] }), clocks, notes(process.env.NOTES_DB ?? ':memory:')],
});
const { url } = await server.listen({ port: Number(process.env.PORT ?? 8080), host: '127.0.0.1' });
console.log(`kapi (custom-storage example) serving on ${url}`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
