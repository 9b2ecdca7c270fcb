import YAML from 'yaml';
import type { AdmissionRequest } from '../admission-request.js';
import { restResultError, type WebhookResponse } from '../../lib/webhook/webhook-client.js';
import { goDecodeError, goTypes as t, type GoType } from '../../lib/go/json-decoding.js';
import { goJsonParseError } from '../../lib/go/json-errors.js';

/** The AdmissionReview versions kapi speaks, in the order kube prefers them. */
export type ReviewVersion = 'v1' | 'v1beta1';

const admissionGroup = 'admission.k8s.io';

/** The first of a webhook's admissionReviewVersions kapi speaks (kube's CreateAdmissionObjects). */
export function reviewVersionFor(versions: readonly string[] | undefined): ReviewVersion | undefined {
  return versions?.find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

export function admissionReview(version: ReviewVersion, request: AdmissionRequest): object {
  return { kind: 'AdmissionReview', apiVersion: `${admissionGroup}/${version}`, request };
}

/** meta/v1 Status as a webhook returns it in `response.status`. */
export interface ResultStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
  code?: number;
}

/** admission.k8s.io AdmissionResponse, as kube's VerifyAdmissionResponse returns it. */
export interface AdmissionResponse {
  allowed: boolean;
  /** The decoded JSON patch (bytes), when the webhook returned one. */
  patch?: Buffer;
  patchType?: string;
  result?: ResultStatus;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** What was wrong with a webhook's answer: the text after `failed calling webhook "name": `. */
export class WebhookAnswerError extends Error {}

const statusType = t.struct('v1.Status', {
  status: t.string(),
  message: t.string(),
  reason: t.string('v1.StatusReason'),
  code: t.int32,
  details: t.struct('v1.StatusDetails', {
    name: t.string(),
    group: t.string(),
    kind: t.string(),
    uid: t.string('types.UID'),
    causes: t.slice(t.struct('v1.StatusCause', { reason: t.string('v1.CauseType'), message: t.string(), field: t.string() })),
    retryAfterSeconds: t.int32,
  }),
});

/** The Go type of an AdmissionReview of one version (its package is named after the version). */
const reviewType = (version: ReviewVersion) =>
  t.struct(`${version}.AdmissionReview`, {
    response: t.struct(`${version}.AdmissionResponse`, {
      uid: t.string('types.UID'),
      allowed: t.bool,
      status: statusType,
      patch: t.bytes,
      patchType: t.string(`${version}.PatchType`),
      auditAnnotations: t.map(t.string()),
      warnings: t.slice(t.string()),
    }),
  }) as GoType & { kind: 'struct' };
const reviewTypes = { v1: reviewType('v1'), v1beta1: reviewType('v1beta1') };

/** Go's text of the anonymous struct kube's serializer reads apiVersion and kind into. */
const findKindType = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** A JSON value's kind as encoding/json names it in a type error (`string`, `array`, `number`, ...). */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * Reads a body as kube's webhook client decodes it: JSON when it starts with `{`, else YAML (its universal decoder).
 */
function decodeBody(text: string): Record<string, unknown> {
  let value: unknown;
  if (text.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(text);
    } catch {
      // only a body that is not JSON pays for the scan that words the error as Go does
      throw new WebhookAnswerError(`failed to call webhook: couldn't get version/kind; json parse error: ${goJsonParseError(text)}`);
    }
  } else {
    try {
      value = YAML.parse(text);
    } catch (err) {
      throw new WebhookAnswerError(`failed to call webhook: error converting YAML to JSON: yaml: ${(err as Error).message.split('\n')[0]}`);
    }
    if (value === null || value === undefined) return {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new WebhookAnswerError(`failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type ${findKindType}`);
    }
  }
  return value as Record<string, unknown>;
}

/**
 * The AdmissionReview a webhook answered, decoded as kube's rest client does (`failed to call webhook: …` when the
 * exchange itself failed: a non-2xx status, an empty or undecodable body, a review of another version or kind). A
 * missing apiVersion or kind is taken from the expected AdmissionReview (VerifyAdmissionResponse then judges them).
 */
export function decodeReviewResponse(res: WebhookResponse, version: ReviewVersion): Record<string, unknown> {
  const failure = restResultError(res);
  if (failure) throw new WebhookAnswerError(`failed to call webhook: ${failure}`);
  const review = decodeBody(res.body.toString('utf8'));
  const expected = `${admissionGroup}/${version}`;
  const apiVersion = (typeof review.apiVersion === 'string' && review.apiVersion) || expected;
  const kind = (typeof review.kind === 'string' && review.kind) || 'AdmissionReview';
  if (apiVersion !== expected || kind !== 'AdmissionReview') {
    const other = version === 'v1' ? 'v1beta1' : 'v1';
    if (kind === 'AdmissionReview' && apiVersion === `${admissionGroup}/${other}`) {
      throw new WebhookAnswerError(`failed to call webhook: converting (*${other}.AdmissionReview) to (*${version}.AdmissionReview): unknown conversion`);
    }
    throw new WebhookAnswerError(`failed to call webhook: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:72"`);
  }
  const typeError = goDecodeError(review, reviewTypes[version]);
  if (typeError) throw new WebhookAnswerError(`failed to call webhook: ${typeError}`);
  return review;
}

const gvkString = (apiVersion: string, kind: string) => {
  const slash = apiVersion.indexOf('/');
  return `${slash < 0 ? '' : apiVersion.slice(0, slash)}/${slash < 0 ? apiVersion : apiVersion.slice(slash + 1)}, Kind=${kind}`;
};

/**
 * kube's VerifyAdmissionResponse: the response must be present; for v1 its uid must be the request's and the review
 * an admission.k8s.io/v1 AdmissionReview; patch and patchType come together, and only from mutating webhooks.
 * A failure is `received invalid webhook response: …`.
 */
export function verifyAdmissionResponse(uid: string, mutating: boolean, review: Record<string, unknown>, version: ReviewVersion): AdmissionResponse {
  const invalid = (why: string) => new WebhookAnswerError(`received invalid webhook response: ${why}`);
  const r = review.response as Record<string, unknown> | null | undefined;
  if (!r) throw invalid('webhook response was absent');
  const patch = typeof r.patch === 'string' && r.patch ? Buffer.from(r.patch, 'base64') : undefined;
  const base: AdmissionResponse = {
    allowed: r.allowed === true,
    ...(r.status ? { result: r.status as ResultStatus } : {}),
    ...(Array.isArray(r.warnings) ? { warnings: r.warnings as string[] } : {}),
    ...(r.auditAnnotations ? { auditAnnotations: r.auditAnnotations as Record<string, string> } : {}),
  };
  if (version === 'v1beta1') {
    // v1beta1 answers were never checked for uid or kind; a patch is taken as a JSON patch.
    return mutating && patch?.length ? { ...base, patch, patchType: 'JSONPatch' } : base;
  }
  const gotUid = typeof r.uid === 'string' ? r.uid : '';
  if (gotUid !== uid) throw invalid(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(gotUid)}`);
  const apiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : '';
  const kind = typeof review.kind === 'string' ? review.kind : '';
  if (apiVersion !== `${admissionGroup}/v1` || kind !== 'AdmissionReview') {
    throw invalid(`expected webhook response of ${admissionGroup}/v1, Kind=AdmissionReview, got ${gvkString(apiVersion, kind)}`);
  }
  const patchType = typeof r.patchType === 'string' ? r.patchType : undefined;
  if (!mutating) {
    if (patch?.length) throw invalid('validating webhook may not return response.patch');
    if (patchType !== undefined) throw invalid('validating webhook may not return response.patchType');
    return base;
  }
  if (patch?.length && patchType === undefined) throw invalid('webhook returned response.patch but not response.patchType');
  if (!patch?.length && patchType !== undefined) throw invalid('webhook returned response.patchType but not response.patch');
  if (patchType === '') throw invalid(`webhook returned invalid response.patchType of ""`);
  return patch?.length ? { ...base, patch, patchType } : base;
}
