import os from 'node:os';

/** This machine's first non-loopback, non-link-local IPv4 address (Endpoints may not name a loopback one), if any. */
export function firstNonLoopbackAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))?.address;
}
