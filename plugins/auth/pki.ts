import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { createCa, createServingCert, issueCert, type CertificatePem } from './certificates.js';
import { writePrivateFile } from './private-file.js';

/** Names every serving certificate covers, besides the requested hosts. */
const defaultHosts = ['127.0.0.1', '::1', 'localhost', 'kubernetes', 'kubernetes.default.svc'];
/** A serving certificate this close to expiry is replaced at start. */
const renewBeforeMs = 30 * 24 * 60 * 60 * 1000;

export interface Pki {
  caCertPem: string;
  /** The serving certificate. */
  certPem: string;
  /** The serving certificate's private key (PKCS#8 PEM). */
  keyPem: string;
}

/**
 * Makes sure `dir` holds a CA (`ca.crt`, `ca.key`) and a serving certificate it signed (`apiserver.crt`,
 * `apiserver.key`) covering localhost, the in-cluster names and `hosts`. Existing files are reused; the serving
 * certificate is replaced when it does not cover the hosts, was not signed by the CA, or is about to expire.
 * Unspecified addresses (0.0.0.0, ::) are not names a client connects to and are skipped.
 */
export async function ensurePki(dir: string, opts: { hosts: string[] }): Promise<Pki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const hosts = [...new Set([...defaultHosts, ...opts.hosts.filter((h) => h !== '0.0.0.0' && h !== '::')])];
  const caPaths = { cert: join(dir, 'ca.crt'), key: join(dir, 'ca.key') };
  const servingPaths = { cert: join(dir, 'apiserver.crt'), key: join(dir, 'apiserver.key') };

  let ca = await readPair(caPaths);
  if (!ca) {
    ca = await createCa('kapi-ca');
    await writePair(caPaths, ca);
  }
  let serving = await readPair(servingPaths);
  if (!serving || !isUsable(serving.certPem, ca.certPem, hosts)) {
    serving = await createServingCert(ca, 'kapi-apiserver', hosts);
    await writePair(servingPaths, serving);
  }
  return { caCertPem: ca.certPem, certPem: serving.certPem, keyPem: serving.keyPem };
}

export interface FrontProxyPki {
  /** The front-proxy CA: what aggregated API servers trust as `--requestheader-client-ca-file`. */
  caCertPem: string;
  /** The client certificate kapi presents to aggregated API servers (CommonName `front-proxy-client`). */
  certPem: string;
  /** Its private key (PKCS#8 PEM). */
  keyPem: string;
}

/** The CommonName of the front-proxy client certificate, as kubeadm names it (what `--requestheader-allowed-names` lists). */
export const frontProxyClientName = 'front-proxy-client';

/**
 * Makes sure `dir` holds a front-proxy CA of its own (`front-proxy-ca.crt`, `front-proxy-ca.key`, as kubeadm keeps it
 * apart from the cluster CA) and the client certificate it signed (`front-proxy-client.crt`, `front-proxy-client.key`)
 * that kapi presents to the aggregated API servers it proxies to. Existing files are reused; the client certificate is
 * replaced when the CA did not sign it or it is about to expire.
 */
export async function ensureFrontProxyPki(dir: string): Promise<FrontProxyPki> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const caPaths = { cert: join(dir, 'front-proxy-ca.crt'), key: join(dir, 'front-proxy-ca.key') };
  const clientPaths = { cert: join(dir, 'front-proxy-client.crt'), key: join(dir, 'front-proxy-client.key') };
  let ca = await readPair(caPaths);
  if (!ca) {
    ca = await createCa('front-proxy-ca');
    await writePair(caPaths, ca);
  }
  let client = await readPair(clientPaths);
  if (!client || !isUsable(client.certPem, ca.certPem, [])) {
    client = await issueCert(ca, frontProxyClientName, ['clientAuth'], []);
    await writePair(clientPaths, client);
  }
  return { caCertPem: ca.certPem, certPem: client.certPem, keyPem: client.keyPem };
}

function isUsable(certPem: string, caCertPem: string, hosts: string[]): boolean {
  const cert = new X509Certificate(certPem);
  return (
    cert.verify(new X509Certificate(caCertPem).publicKey) &&
    Date.parse(cert.validTo) - Date.now() > renewBeforeMs &&
    hosts.every((h) => (isIP(h) ? cert.checkIP(h) : cert.checkHost(h)) !== undefined)
  );
}

async function readPair(paths: { cert: string; key: string }): Promise<CertificatePem | undefined> {
  try {
    return { certPem: await readFile(paths.cert, 'utf8'), keyPem: await readFile(paths.key, 'utf8') };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function writePair(paths: { cert: string; key: string }, pair: CertificatePem): Promise<void> {
  await writePrivateFile(paths.key, pair.keyPem);
  await writeFile(paths.cert, pair.certPem, { mode: 0o644 });
}
