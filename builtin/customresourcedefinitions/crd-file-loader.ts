import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { applyCrdDefaults, crdResourceRef } from './crd-resource.js';
import type { Crd } from './crd-types.js';

const crdApiVersion = 'apiextensions.k8s.io/v1';

/** Every CRD document in a file, or in the .yaml/.yml/.json files of a folder. */
export function readCrdFiles(path: string): KubeObject[] {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => /\.(ya?ml|json)$/.test(f))
        .sort()
        .map((f) => join(path, f))
    : [path];
  const crds: KubeObject[] = [];
  for (const file of files) {
    for (const doc of YAML.parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      const obj = doc.toJS() as KubeObject | null;
      if (!obj) continue;
      if (obj.apiVersion !== crdApiVersion || obj.kind !== 'CustomResourceDefinition') {
        throw new Error(`${file}: expected ${crdApiVersion} CustomResourceDefinition, found ${String(obj.apiVersion)} ${String(obj.kind)}`);
      }
      crds.push(obj);
    }
  }
  return crds;
}

/** The CRD with kube's defaults, as it would be stored: a file that only leaves defaults out changes nothing. */
function defaulted(crd: KubeObject): KubeObject {
  const copy = structuredClone(crd) as Crd;
  applyCrdDefaults(copy);
  return copy;
}

/** Installs the CRDs of `--crds` paths at start: creates missing ones, updates changed specs. */
export class CrdFileLoader implements Controller {
  readonly name = 'crd-file-loader';
  readonly resources = [crdResourceRef];

  constructor(
    private readonly container: DependencyContainer,
    private readonly paths: string[],
  ) {}

  /** Each CRD goes through the write path as a create or update by kapi itself: decoding, admission, validation. */
  async start(): Promise<void> {
    const crds = this.container.resolve(Tokens.Objects).forResource(crdResourceRef, { user: { username: 'system:kapi', groups: ['system:masters'] } });
    for (const crd of this.paths.flatMap(readCrdFiles)) {
      const name = String(crd.metadata?.name ?? '');
      try {
        const existing = await crds.get('', name);
        if (!existing) await crds.create(crd);
        else if (!isDeepStrictEqual(existing.spec, defaulted(crd).spec)) await crds.update('', name, (current) => ({ ...current, spec: crd.spec }));
      } catch (err) {
        const reason = err instanceof ApiError ? err.message : String(err);
        throw new Error(`installing CRD ${name}: ${reason}`);
      }
    }
  }

  async stop(): Promise<void> {}
}
