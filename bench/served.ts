/** Waiting until a freshly installed CRD's resource is served. */
import type { HttpsClient } from './https-client.js';

/** Polls discovery until `groupVersionPath` (e.g. `/apis/example.com/v1`) lists every one of `plurals`. */
export async function waitForServed(client: HttpsClient, groupVersionPath: string, plurals: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.request('GET', groupVersionPath);
    if (res.status === 200) {
      const list = JSON.parse(res.body.toString('utf8')) as { resources?: { name?: string }[] };
      const served = new Set(list.resources?.map((r) => r.name));
      if (plurals.every((p) => served.has(p))) return;
    }
    if (Date.now() > deadline) {
      throw new Error(`${groupVersionPath} did not list ${plurals.join(', ')} within ${timeoutMs} ms (last: HTTP ${res.status})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
