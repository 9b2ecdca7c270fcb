import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { KubeObject } from '../../core/contracts/resource-type.js';
import { Tokens } from '../../core/contracts/tokens.js';
import { ResourceStore } from '../../core/store/resource-store.js';
import { prepareForCreate, prepareForUpdate } from '../../core/store/object-meta-lifecycle.js';
import { validationStage } from '../../core/handlers/validation-stage.js';
import { typedDecodeError } from '../../core/handlers/typed-decoding.js';
import { ApiError } from '../../core/contracts/api-error.js';
import { crdResource } from './crd-resource.js';

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

/** Installs the CRDs of `--crds` paths at start: creates missing ones, updates changed specs. */
export class CrdFileLoader implements Controller {
  readonly name = 'crd-file-loader';

  constructor(
    private readonly container: DependencyContainer,
    private readonly paths: string[],
  ) {}

  async start(): Promise<void> {
    const store = new ResourceStore(this.container.resolve(Tokens.KVStore), crdResource());
    const admin = { username: 'system:kapi', groups: ['system:masters'] };
    for (const crd of this.paths.flatMap(readCrdFiles)) {
      const name = String(crd.metadata?.name ?? '');
      const existing = await store.find('', name);
      const base = {
        rt: store.rt,
        version: 'v1',
        kind: { group: store.rt.group, version: 'v1', kind: store.rt.names.kind },
        resource: { group: store.rt.group, version: 'v1', resource: store.rt.names.plural },
        subresource: '',
        namespace: '',
        name,
        userInfo: admin,
        dryRun: false,
        options: {},
        warnings: [],
      };
      try {
        const decodeError = typedDecodeError(store.rt, crd);
        if (decodeError) throw new Error(decodeError);
        if (!existing) {
          prepareForCreate(crd, store.rt, 'v1', '');
          await validationStage.run({ ...base, operation: 'CREATE', object: crd });
          await store.create(crd);
        } else if (!isDeepStrictEqual(existing.spec, crd.spec)) {
          await store.update('', name, async (current) => {
            const next = prepareForUpdate({ ...current, spec: crd.spec }, current, store.rt, 'v1', '');
            await validationStage.run({ ...base, operation: 'UPDATE', object: next, oldObject: current });
            return next;
          });
        }
      } catch (err) {
        const reason = err instanceof ApiError ? err.message : String(err);
        throw new Error(`installing CRD ${name}: ${reason}`);
      }
    }
  }

  async stop(): Promise<void> {}
}
