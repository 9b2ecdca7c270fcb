import { randomUUID } from 'node:crypto';
import type { KubeObject, ResourceType } from '../contracts/resource-type.js';
import { errors } from '../contracts/api-error.js';
import { postWebhook, WebhookCallError, type WebhookResponse } from '../../lib/webhook/webhook-client.js';
import { compileSchema } from '../../schemas/structural-schema.js';
import type { WebhookConversion } from '../contracts/conversion-settings.js';
import { noServiceResolver } from '../contracts/service-resolver.js';
import type { MaybePromise, ObjectConverter } from '../contracts/object-converter.js';
import { ConversionReviewError, conversionReviewRequest, readConversionResponse, reviewVersionFor } from './conversion-review.js';
import { acceptConvertedObject } from './converted-object.js';
import { gvkString, parseGroupVersion } from './group-version-kind.js';

/**
 * Strategy Webhook: objects not in the desired version are sent to the CRD's conversion webhook in one
 * ConversionReview (a list's items together), as kube-apiserver's webhookConverter does, and the answer is checked as
 * kube checks it. Converted objects are pruned by the desired version's schema (kube's schema coercion after
 * conversion). Objects already in the desired version never reach the webhook and come back synchronously.
 */
export class WebhookConverter implements ObjectConverter {
  readonly synchronous = false;

  constructor(
    private readonly rt: ResourceType,
    private readonly webhook: WebhookConversion,
    private readonly timeoutMs: number,
  ) {}

  convertObject(obj: KubeObject, apiVersion: string): MaybePromise<KubeObject> {
    if (obj.apiVersion === apiVersion) return obj;
    return this.convert([obj], apiVersion).then((converted) => converted[0]!);
  }

  convertList(items: readonly KubeObject[], apiVersion: string): MaybePromise<KubeObject[]> {
    const pending = items.filter((o) => o.apiVersion !== apiVersion);
    if (pending.length === 0) return items.slice();
    return this.convert(pending, apiVersion).then((converted) => {
      let next = 0;
      return items.map((o) => (o.apiVersion === apiVersion ? o : converted[next++]!));
    });
  }

  /** One ConversionReview for `objects` (all in another version than `apiVersion`). */
  private async convert(objects: KubeObject[], apiVersion: string): Promise<KubeObject[]> {
    // kube names the converted object's group/version/kind; for a batch, the first object's.
    const subject = `conversion webhook for ${gvkString(objects[0]!.apiVersion, objects[0]!.kind)}`;
    const version = reviewVersionFor(this.webhook.conversionReviewVersions);
    if (!version) throw errors.unknown('no supported conversion review versions');
    const uid = randomUUID();
    let res: WebhookResponse;
    try {
      res = await postWebhook(this.webhook.clientConfig, conversionReviewRequest(version, uid, apiVersion, objects), this.timeoutMs, this.webhook.services ?? noServiceResolver);
    } catch (err) {
      if (!(err instanceof WebhookCallError)) throw err;
      // kube's webhook client times out through http.Client.Timeout, which Go reports this way.
      throw errors.unknown(`${subject} failed: ${err.message}${err.timedOut ? ' (Client.Timeout exceeded while awaiting headers)' : ''}`);
    }
    let returned: unknown[];
    try {
      returned = readConversionResponse(res, version, uid);
    } catch (err) {
      if (!(err instanceof ConversionReviewError)) throw err;
      throw errors.unknown(`${subject} failed: ${err.message}`);
    }
    if (returned.length !== objects.length) throw errors.unknown(`${subject} returned ${returned.length} objects, expected ${objects.length}`);
    const schema = this.rt.versions.find((v) => v.name === parseGroupVersion(apiVersion).version)?.schema;
    const compiled = schema ? compileSchema(schema) : undefined;
    return objects.map((original, i) => {
      const converted = acceptConvertedObject(original, returned[i], apiVersion);
      compiled?.prune(converted);
      return converted;
    });
  }
}
