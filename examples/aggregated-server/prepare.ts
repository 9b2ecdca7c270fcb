/**
 * Makes what the example server and the front need: a CA and a serving certificate signed by it (valid for
 * api.metrics-example.svc, the name the front verifies, and for ADDRESS and localhost) in DATA_DIR/pki, and the
 * manifests of deploy/ with the CA as the APIService's caBundle and ADDRESS:PORT in the Endpoints (PORT as the Service's targetPort), in
 * DATA_DIR/deploy. Existing certificates are kept.
 *
 *   node dist/examples/aggregated-server/prepare.js && kubectl apply -f .aggregated/deploy
 *
 * Environment: DATA_DIR (default .aggregated), PORT (the server's, default 8443), ADDRESS (default: this machine's
 * first non-loopback IPv4 address).
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { ensurePki } from '../../index.js';

/** deploy/ beside this file's source (this file runs compiled, from dist/examples/aggregated-server/). */
const deployDir = fileURLToPath(new URL('../../../examples/aggregated-server/deploy/', import.meta.url));
const dataDir = process.env.DATA_DIR ?? '.aggregated';
const port = Number(process.env.PORT ?? 8443);
const address = process.env.ADDRESS ?? firstNonLoopbackAddress();

function firstNonLoopbackAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'));
  if (!found) throw new Error('this machine has no non-loopback IPv4 address for the Endpoints: set ADDRESS');
  return found.address;
}

const pki = await ensurePki(join(dataDir, 'pki'), { hosts: ['api.metrics-example.svc', address] });
const caBundle = Buffer.from(pki.caCertPem).toString('base64');

const outDir = join(dataDir, 'deploy');
await mkdir(outDir, { recursive: true });
for (const file of (await readdir(deployDir)).filter((f) => f.endsWith('.yaml'))) {
  const docs = parseAllDocuments(await readFile(join(deployDir, file), 'utf8'));
  for (const doc of docs) {
    const kind = doc.get('kind');
    if (kind === 'APIService') doc.setIn(['spec', 'caBundle'], caBundle);
    if (kind === 'Service') doc.setIn(['spec', 'ports', 0, 'targetPort'], port);
    if (kind === 'Endpoints') {
      doc.setIn(['subsets', 0, 'addresses', 0, 'ip'], address);
      doc.setIn(['subsets', 0, 'ports', 0, 'port'], port);
    }
  }
  await writeFile(join(outDir, file), docs.map((d) => d.toString({ lineWidth: 0 })).join(''));
}
console.log(`certificates in ${join(dataDir, 'pki')}; manifests for ${address}:${port} in ${outDir}`);
