/**
 * Set-up of the CEL phases: install both CRDs, wait until they are served, and prove the rules are in force — a
 * valid object is created under both kinds, and an object that breaks some rules (but not the schema) is created as
 * Plain and refused with 422 as Ruled.
 */
import { celCollectionPath, celCrd, celGroupVersionPath, celObject, celPlural, celSpec, type CelKind } from './cel-crds.js';
import { expectStatus, type HttpsClient } from './https-client.js';
import { waitForServed } from './served.js';

const kinds: CelKind[] = ['Plain', 'Ruled'];

/** A spec within the schema that breaks the image rules. */
const ruleBreakingSpec = { ...celSpec, image: 'docker.io/library/nginx:latest' };

export async function installCelCrds(client: HttpsClient): Promise<void> {
  for (const kind of kinds) {
    const res = await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', celCrd(kind));
    expectStatus(res, [201, 409], `create CRD ${celPlural[kind]}.example.com`);
  }
}

export function waitForCelServed(client: HttpsClient): Promise<void> {
  return waitForServed(client, celGroupVersionPath, kinds.map((k) => celPlural[k]));
}

export async function checkCelRulesEnforced(client: HttpsClient): Promise<void> {
  for (const kind of kinds) {
    const valid = await client.request('POST', celCollectionPath(kind), celObject(kind, 'probe-valid'));
    expectStatus(valid, [201, 409], `create valid ${kind}`);
    const invalid = await client.request('POST', celCollectionPath(kind), celObject(kind, 'probe-invalid', ruleBreakingSpec));
    expectStatus(invalid, kind === 'Ruled' ? [422] : [201, 409], `create rule-breaking ${kind}`);
    if (kind === 'Ruled' && !invalid.body.toString('utf8').includes('image must come from registry.example.com')) {
      throw new Error(`the 422 for a rule-breaking Ruled does not name the broken rule: ${invalid.body.toString('utf8').slice(0, 500)}`);
    }
  }
}
