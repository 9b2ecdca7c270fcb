import type { KubeObject } from '../contracts/resource-type.js';
import type { ObjectConverter } from '../contracts/object-converter.js';

/** Strategy None: the object itself, under the desired apiVersion (kube's nopConverter). Always synchronous. */
export class NoneConverter implements ObjectConverter {
  readonly synchronous = true;

  constructor(private readonly kind: string) {}

  convertObject(obj: KubeObject, apiVersion: string): KubeObject {
    // A copy, so that callers may set fields without touching a shared (watch-cache) object.
    return { ...obj, apiVersion, kind: this.kind };
  }

  convertList(items: readonly KubeObject[], apiVersion: string): KubeObject[] {
    const out = new Array<KubeObject>(items.length);
    for (let i = 0; i < items.length; i++) out[i] = { ...items[i]!, apiVersion, kind: this.kind };
    return out;
  }
}
