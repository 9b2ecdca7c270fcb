import type { X509Certificate } from 'node:crypto';

const clientAuth = '1.3.6.1.5.5.7.3.2';
const anyExtendedKeyUsage = '2.5.29.37.0';
/** Intermediates followed at most, as a bound on the work a presented chain can cause. */
const maxIntermediates = 4;

/** The chain a client certificate verified through, up to its root; or why it does not verify. */
export type ChainVerdict = { chain: X509Certificate[] } | { error: string };

/**
 * Verifies a client certificate against `roots` at `now` as Go's x509 Verify with the clientAuth key usage judges it:
 * a chain through the presented `intermediates` to a root, each issuer a CA whose signature holds, every certificate
 * within its validity, and every extended key usage list allowing client auth.
 */
export function verifyClientChain(leaf: X509Certificate, intermediates: X509Certificate[], roots: X509Certificate[], now: Date): ChainVerdict {
  const chain = chainTo(leaf, intermediates.slice(0, maxIntermediates), roots);
  if (!chain) return { error: 'x509: certificate signed by unknown authority' };
  for (const cert of chain) {
    const from = new Date(cert.validFrom);
    const to = new Date(cert.validTo);
    if (now < from) return { error: `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is before ${from.toISOString()}` };
    if (now > to) return { error: `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is after ${to.toISOString()}` };
  }
  for (const cert of chain) {
    const usages = cert.keyUsage;
    if (usages?.length && !usages.includes(clientAuth) && !usages.includes(anyExtendedKeyUsage)) {
      return { error: 'x509: certificate specifies an incompatible key usage' };
    }
  }
  return { chain };
}

/** A path from `cert` to one of `roots`, through `intermediates`, each link an issuer's valid signature. */
function chainTo(cert: X509Certificate, intermediates: X509Certificate[], roots: X509Certificate[]): X509Certificate[] | undefined {
  const root = roots.find((r) => r.ca && issuedBy(cert, r));
  if (root) return [cert, root];
  for (const [i, parent] of intermediates.entries()) {
    if (!parent.ca || !issuedBy(cert, parent)) continue;
    const rest = chainTo(parent, intermediates.filter((_, j) => j !== i), roots);
    if (rest) return [cert, ...rest];
  }
  return undefined;
}

function issuedBy(cert: X509Certificate, parent: X509Certificate): boolean {
  try {
    return cert.checkIssued(parent) && cert.verify(parent.publicKey);
  } catch {
    return false; // a key or signature algorithm OpenSSL cannot check
  }
}
