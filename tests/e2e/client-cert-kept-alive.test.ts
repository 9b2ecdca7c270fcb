// A client certificate is verified once per connection and taken as verified on the requests that follow — only while
// the CA certificates are the same: on a kept-alive connection, a CA file replaced while serving refuses the next request.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { createCa, createClientCert } from '../../plugins/auth/certificates.js';
import { tempFile, useKapi } from '../helpers/kapi-process.js';

const day = 24 * 60 * 60 * 1000;
const frontProxyCa = await createCa('front-proxy-ca');
const caFile = tempFile('front-proxy-ca.crt', frontProxyCa.certPem);
const kapi = useKapi({ args: ['--storage', 'memory', '--requestheader-client-ca-file', caFile] });

/** A SelfSubjectReview over `agent`'s one kept-alive connection: the user the server saw, and whether the connection was reused. */
function whoami(agent: Agent, cert: { certPem: string; keyPem: string }): Promise<{ status: number; user?: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${kapi.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      {
        method: 'POST',
        agent,
        ca: readFileSync(join(kapi.dataDir, 'pki', 'ca.crt')),
        cert: cert.certPem,
        key: cert.keyPem,
        headers: { 'Content-Type': 'application/json', 'X-Remote-User': 'alice' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, user: JSON.parse(text).status?.userInfo?.username, reused: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
  });
}

test('a CA file replaced while serving refuses the next request on a connection its certificate was verified on', async (t) => {
  const proxy = await createClientCert(frontProxyCa, { username: 'front-proxy-client', groups: [] }, day);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  t.like(await whoami(agent, proxy), { status: 201, user: 'alice', reused: false });
  t.like(await whoami(agent, proxy), { status: 201, user: 'alice', reused: true }, 'verified before, on the same connection');

  writeFileSync(caFile, (await createCa('another-ca')).certPem);
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // the CA file is looked at again once a second
  t.like(await whoami(agent, proxy), { status: 401, reused: true });
});
