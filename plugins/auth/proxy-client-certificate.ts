import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CertificatePem } from './certificates.js';

/** A `--proxy-client-cert-file`/`--proxy-client-key-file` pair kube-apiserver would refuse to start with. */
export class ProxyClientCertificateError extends Error {
  override readonly name = 'ProxyClientCertificateError';
}

/**
 * Reads the front-proxy client certificate and its key (PEM), checked as Go's tls.X509KeyPair checks them: a
 * certificate, a private key, and the key the certificate's.
 */
export async function readProxyClientCertificate(certFile: string, keyFile: string): Promise<CertificatePem> {
  const read = async (file: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new ProxyClientCertificateError(`failed to load ${file}: ${(err as Error).message}`);
    }
  };
  const certPem = await read(certFile);
  const keyPem = await read(keyFile);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new ProxyClientCertificateError(`${certFile}: tls: failed to find any PEM data in certificate input`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new ProxyClientCertificateError(`${keyFile}: tls: failed to find any PEM data in key input`);
  }
  if (!cert.checkPrivateKey(key)) throw new ProxyClientCertificateError('tls: private key does not match public key');
  return { certPem, keyPem };
}
