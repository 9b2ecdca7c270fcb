/** Certificates for etcd over TLS in tests: a CA, etcd's serving certificate for 127.0.0.1, and a client certificate. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCa, issueCert } from '../../plugins/auth/certificates.js';

export interface EtcdTlsFiles {
  caFile: string;
  /** etcd's certificate (serverAuth and clientAuth: etcd also dials itself) and key. */
  serverCertFile: string;
  serverKeyFile: string;
  /** A client certificate (clientAuth) signed by the CA, and its key. */
  clientCertFile: string;
  clientKeyFile: string;
  /** Another CA's client certificate and key (etcd must refuse it). */
  strangerCertFile: string;
  strangerKeyFile: string;
}

/** Writes the files into `dir`. */
export async function createEtcdTls(dir: string): Promise<EtcdTlsFiles> {
  const ca = await createCa('etcd-test-ca');
  const server = await issueCert(ca, 'etcd', ['serverAuth', 'clientAuth'], ['127.0.0.1']);
  const client = await issueCert(ca, 'kapi', ['clientAuth'], []);
  const stranger = await issueCert(await createCa('another-ca'), 'stranger', ['clientAuth'], []);
  const files: EtcdTlsFiles = {
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'etcd.crt'),
    serverKeyFile: join(dir, 'etcd.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
    strangerCertFile: join(dir, 'stranger.crt'),
    strangerKeyFile: join(dir, 'stranger.key'),
  };
  writeFileSync(files.caFile, ca.certPem);
  writeFileSync(files.serverCertFile, server.certPem);
  writeFileSync(files.serverKeyFile, server.keyPem, { mode: 0o600 });
  writeFileSync(files.clientCertFile, client.certPem);
  writeFileSync(files.clientKeyFile, client.keyPem, { mode: 0o600 });
  writeFileSync(files.strangerCertFile, stranger.certPem);
  writeFileSync(files.strangerKeyFile, stranger.keyPem, { mode: 0o600 });
  return files;
}
