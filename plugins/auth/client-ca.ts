import type { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { parsePemCertificates } from '../../lib/x509/pem-bundle.js';
import { log } from '../../lib/log/logger.js';

/** A `--client-ca-file` kube-apiserver would refuse to start with. */
export class ClientCaError extends Error {
  override readonly name = 'ClientCaError';
}

/** How often, at most, the file's modification time is looked at. */
const recheckMs = 1000;

/**
 * The CA certificates of a `--client-ca-file` (a PEM bundle), read again when the file changes while serving, as
 * kube-apiserver follows it. A change that does not parse keeps the certificates read before.
 */
export class ClientCaFile {
  private certs: X509Certificate[];
  private mtimeMs: number;
  private checkedAt = 0;

  constructor(readonly path: string) {
    this.mtimeMs = mtime(path);
    this.certs = readBundle(path);
  }

  /** The CA certificates now. */
  current(): X509Certificate[] {
    const now = Date.now();
    if (now - this.checkedAt >= recheckMs) {
      this.checkedAt = now;
      try {
        const m = mtime(this.path);
        if (m !== this.mtimeMs) {
          this.certs = readBundle(this.path);
          this.mtimeMs = m;
        }
      } catch (err) {
        log.error(`keeping the client CA certificates read before: ${(err as Error).message}`);
      }
    }
    return this.certs;
  }
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch (err) {
    throw new ClientCaError(`cannot read client CA file '${path}': ${(err as Error).message}`);
  }
}

/** The certificates of a PEM bundle; kube refuses a file with none. */
function readBundle(path: string): X509Certificate[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ClientCaError(`cannot read client CA file '${path}': ${(err as Error).message}`);
  }
  let certs: X509Certificate[];
  try {
    certs = parsePemCertificates(text);
  } catch (err) {
    throw new ClientCaError(`client CA file '${path}': ${(err as Error).message}`);
  }
  if (certs.length === 0) throw new ClientCaError(`client CA file '${path}': data does not contain any valid RSA or ECDSA certificates`);
  return certs;
}
