import test from 'ava';
import { X509Certificate } from 'node:crypto';
import { createCa, createClientCert, createServingCert } from '../../../../plugins/auth/certificates.js';
import { verifyClientChain } from '../../../../plugins/auth/client-certificate-chain.js';
import { issueOddCert } from '../../../helpers/client-certs.js';

const day = 24 * 60 * 60 * 1000;
const x = (pem: string) => new X509Certificate(pem);
/** Why the chain does not verify, or undefined when it does. */
const chainError = (...args: Parameters<typeof verifyClientChain>) => {
  const verdict = verifyClientChain(...args);
  return 'error' in verdict ? verdict.error : undefined;
};

test('a client certificate kapi issues verifies against its CA, and only against it', async (t) => {
  const ca = await createCa('test-ca');
  const other = await createCa('other-ca');
  const alice = await createClientCert(ca, { username: 'alice', groups: ['devs'] }, day);
  t.is(chainError(x(alice.certPem), [], [x(ca.certPem)], new Date()), undefined);
  t.is(chainError(x(alice.certPem), [], [x(other.certPem), x(ca.certPem)], new Date()), undefined, 'any CA of the bundle');
  t.is(chainError(x(alice.certPem), [], [x(other.certPem)], new Date()), 'x509: certificate signed by unknown authority');
  // a certificate naming the CA as issuer but signed by another key
  const forged = await issueOddCert({ certPem: ca.certPem, keyPem: other.keyPem }, { commonName: 'mallory' });
  t.is(chainError(x(forged.certPem), [], [x(ca.certPem)], new Date()), 'x509: certificate signed by unknown authority');
});

test('validity dates: expired and not yet valid certificates are refused with Go\'s reason', async (t) => {
  const ca = await createCa('test-ca');
  const expired = await issueOddCert(ca, { commonName: 'old', notBefore: new Date(Date.now() - 3 * day), notAfter: new Date(Date.now() - day) });
  t.regex(chainError(x(expired.certPem), [], [x(ca.certPem)], new Date()) ?? '', /^x509: certificate has expired or is not yet valid: current time \S+ is after \S+$/);
  const future = await issueOddCert(ca, { commonName: 'new', notBefore: new Date(Date.now() + day), notAfter: new Date(Date.now() + 3 * day) });
  t.regex(chainError(x(future.certPem), [], [x(ca.certPem)], new Date()) ?? '', /^x509: certificate has expired or is not yet valid: current time \S+ is before \S+$/);
});

test('a certificate for server auth only is not a client certificate', async (t) => {
  const ca = await createCa('test-ca');
  const serving = await createServingCert(ca, 'server', ['127.0.0.1']);
  t.is(chainError(x(serving.certPem), [], [x(ca.certPem)], new Date()), 'x509: certificate specifies an incompatible key usage');
  const both = await issueOddCert(ca, { commonName: 'both', usages: ['serverAuth', 'clientAuth'] });
  t.is(chainError(x(both.certPem), [], [x(ca.certPem)], new Date()), undefined);
});

test('a chain through intermediates the client sent verifies; a leaf cannot sign for others', async (t) => {
  const ca = await createCa('test-ca');
  const intermediate = await issueOddCert(ca, { commonName: 'intermediate', ca: true });
  const leaf = await issueOddCert(intermediate, { commonName: 'alice' });
  t.is(chainError(x(leaf.certPem), [x(intermediate.certPem)], [x(ca.certPem)], new Date()), undefined);
  t.is(chainError(x(leaf.certPem), [], [x(ca.certPem)], new Date()), 'x509: certificate signed by unknown authority');
  const bob = await issueOddCert(ca, { commonName: 'bob' });
  const underBob = await issueOddCert(bob, { commonName: 'mallory' });
  t.is(chainError(x(underBob.certPem), [x(bob.certPem)], [x(ca.certPem)], new Date()), 'x509: certificate signed by unknown authority');
});
