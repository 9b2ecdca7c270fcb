import type { KubeObject } from '../contracts/resource-type.js';
import { restResultError, type WebhookResponse } from '../../lib/webhook/webhook-client.js';
import { goQuote } from '../../lib/go/go-values.js';
import { gvkString } from './group-version-kind.js';
import { goJsonParseError, unmarshalFieldError, unmarshalValueError } from '../../lib/go/json-errors.js';

/** The ConversionReview versions kube-apiserver speaks (apiextensions.k8s.io). */
export type ReviewVersion = 'v1' | 'v1beta1';

const reviewGroup = 'apiextensions.k8s.io';

/** A ConversionReview request in the wire form kube sends (an empty `response` included, as kube's Go struct has it). */
export interface ConversionReviewRequest {
  kind: 'ConversionReview';
  apiVersion: string;
  request: { uid: string; desiredAPIVersion: string; objects: readonly KubeObject[] };
  response: { uid: ''; convertedObjects: null; result: { metadata: Record<string, never> } };
}

/** The ConversionReview version kube sends: the first of the webhook's `conversionReviewVersions` that it knows. */
export function reviewVersionFor(versions: readonly string[]): ReviewVersion | undefined {
  return versions.find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

export function conversionReviewRequest(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly KubeObject[]): ConversionReviewRequest {
  return {
    kind: 'ConversionReview',
    apiVersion: `${reviewGroup}/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
}

/** A webhook answer kube does not accept; the message is kube's text for it (the caller adds the "conversion webhook for …" prefix). */
export class ConversionReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionReviewError';
  }
}

/**
 * The converted objects of a webhook's answer to the review `uid`, after the checks kube-apiserver makes: the HTTP
 * exchange (status, body), the decoding into a ConversionReview of the version sent, then (v1 only) its kind and
 * uid, and the result. Throws ConversionReviewError. The objects themselves are checked by the caller.
 */
export function readConversionResponse(res: WebhookResponse, version: ReviewVersion, uid: string): unknown[] {
  const exchange = restResultError(res);
  if (exchange !== undefined) throw new ConversionReviewError(exchange);
  const review = decodeReview(res.body.toString('utf8'), version);
  if (version === 'v1') {
    const got = gvkString(review.apiVersion, review.kind);
    const want = `${reviewGroup}/v1, Kind=ConversionReview`;
    if (got !== want) throw new ConversionReviewError(`expected webhook response of ${want}, got ${got}`);
  }
  const response = review.response as Record<string, unknown> | null | undefined;
  if (response === undefined || response === null) throw new ConversionReviewError('no response provided');
  const responseUid = (response.uid as string | undefined) ?? '';
  if (version === 'v1' && responseUid !== uid) throw new ConversionReviewError(`expected response.uid=${goQuote(uid)}, got ${goQuote(responseUid)}`);
  const result = (response.result as Record<string, unknown> | null | undefined) ?? {};
  const status = (result.status as string | undefined) ?? '';
  if (status !== 'Success') {
    const message = (result.message as string | undefined) ?? '';
    throw new ConversionReviewError(message || `response.result.status was '${status}', not 'Success'`);
  }
  return (response.convertedObjects as unknown[] | null | undefined) ?? [];
}

/**
 * The answer decoded as kube's webhook client decodes it into a ConversionReview of the version it sent: JSON syntax,
 * the apiVersion/kind sniffing, a review of the other version (no conversion between them), and the field types.
 */
function decodeReview(text: string, version: ReviewVersion): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConversionReviewError(`couldn't get version/kind; json parse error: ${goJsonParseError(text)}`);
  }
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ConversionReviewError(`couldn't get version/kind; json parse error: ${unmarshalValueError(value, typeMetaSniffer)}`);
  }
  const review = value as Record<string, unknown>;
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = review[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new ConversionReviewError(`couldn't get version/kind; json parse error: ${unmarshalFieldError(v, '', field, 'string')}`);
    }
  }
  const other: ReviewVersion = version === 'v1' ? 'v1beta1' : 'v1';
  if ((review.kind === undefined || review.kind === 'ConversionReview') && review.apiVersion === `${reviewGroup}/${other}`) {
    throw new ConversionReviewError(`converting (${other}.ConversionReview) to (${version}.ConversionReview): unknown conversion`);
  }
  checkFieldTypes(review, version);
  return review;
}

/** The anonymous struct apimachinery's SimpleMetaFactory unmarshals into, as Go prints its type. */
const typeMetaSniffer = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** The first field of the answer whose JSON type does not fit the Go struct, as encoding/json reports it. */
function checkFieldTypes(review: Record<string, unknown>, version: ReviewVersion): void {
  const fail = (value: unknown, struct: string, path: string, type: string): never => {
    throw new ConversionReviewError(unmarshalFieldError(value, struct, path, type));
  };
  const response = review.response;
  if (response === undefined || response === null) return;
  if (typeof response !== 'object' || Array.isArray(response)) fail(response, 'ConversionReview', 'response', `${version}.ConversionResponse`);
  const r = response as Record<string, unknown>;
  if (r.uid !== undefined && r.uid !== null && typeof r.uid !== 'string') fail(r.uid, 'ConversionResponse', 'response.uid', 'types.UID');
  const objects = r.convertedObjects;
  if (objects !== undefined && objects !== null && !Array.isArray(objects)) {
    fail(objects, 'ConversionResponse', 'response.convertedObjects', '[]runtime.RawExtension');
  }
  const result = r.result;
  if (result === undefined || result === null) return;
  if (typeof result !== 'object' || Array.isArray(result)) fail(result, 'ConversionResponse', 'response.result', 'v1.Status');
  for (const field of ['status', 'message'] as const) {
    const v = (result as Record<string, unknown>)[field];
    if (v !== undefined && v !== null && typeof v !== 'string') fail(v, 'Status', `response.result.${field}`, 'string');
  }
}
