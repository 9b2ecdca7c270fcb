// Reading a webhook's answer as kube does: client-go's handling of the HTTP answer, decoding, VerifyAdmissionResponse.
import test from 'ava';
import { decodeReviewResponse, reviewVersionFor, verifyAdmissionResponse, WebhookAnswerError } from '../../../../admission/webhook/admission-review.js';
import { restResultError, type WebhookResponse } from '../../../../lib/webhook/webhook-client.js';

const answer = (body: string | object, status = 200, contentType = 'application/json'): WebhookResponse => ({
  status,
  contentType,
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookAnswerError) return err.message;
    throw err;
  }
  return 'no error';
};

const uid = '6d1c0f0e-4c2a-4b8e-9f57-3f1f7f0d1a2b';
const review = (response: object, extra: object = {}) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, ...response }, ...extra });

test("client-go's view of the HTTP answer", (t) => {
  t.is(restResultError(answer(review({ allowed: true }))), undefined);
  t.is(restResultError(answer('', 200, '')), '0-length response with status code: 200 and content type: application/json');
  t.is(restResultError(answer({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'nope' }, 400)), 'nope');
  t.is(restResultError(answer('teapot', 418, 'text/plain')), 'the server responded with the status code 418 but did not return more information');
  t.is(restResultError(answer('<html>', 502, 'text/html')), 'an error on the server ("<html>") has prevented the request from succeeding');
  t.is(restResultError(answer('{}', 500, 'application/json')), 'an error on the server ("unknown") has prevented the request from succeeding');
  t.is(restResultError(answer('', 503, '')), 'the server is currently unable to handle the request');
  t.is(restResultError(answer('forbidden by proxy', 403, '')), 'forbidden by proxy');
});

test('the first AdmissionReview version kapi speaks is used', (t) => {
  t.is(reviewVersionFor(['v2', 'v1beta1', 'v1']), 'v1beta1');
  t.is(reviewVersionFor(['v2']), undefined);
});

test('decoding: YAML and JSON bodies, missing kind defaulted, other kinds refused', (t) => {
  t.deepEqual(decodeReviewResponse(answer('apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nresponse: {allowed: true}\n', 200, 'application/yaml'), 'v1'), {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { allowed: true },
  });
  t.deepEqual(decodeReviewResponse(answer({ response: { allowed: true } }), 'v1'), { response: { allowed: true } });
  t.is(
    failure(() => decodeReviewResponse(answer({ apiVersion: 'v1', kind: 'Pod' }), 'v1')),
    'failed to call webhook: no kind "Pod" is registered for version "v1" in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:72"',
  );
  t.is(
    failure(() => decodeReviewResponse(answer({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { warnings: 'careful' } }), 'v1')),
    'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.warnings of type []string',
  );
  t.is(
    failure(() => decodeReviewResponse(answer({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { patch: 'not base64!' } }), 'v1beta1')),
    'failed to call webhook: illegal base64 data at input byte 3',
  );
});

test('VerifyAdmissionResponse: uid, kind, and patches only from mutating webhooks, with patchType', (t) => {
  const ok = verifyAdmissionResponse(uid, true, review({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64'), warnings: ['w'] }), 'v1');
  t.deepEqual({ ...ok, patch: ok.patch?.toString() }, { allowed: true, patch: '[]', patchType: 'JSONPatch', warnings: ['w'] });
  const verify = (r: object, mutating = true) => failure(() => verifyAdmissionResponse(uid, mutating, r as never, 'v1'));
  t.is(verify(review({ allowed: true, patch: 'W10=' })), 'received invalid webhook response: webhook returned response.patch but not response.patchType');
  t.is(verify(review({ allowed: true, patchType: 'JSONPatch' })), 'received invalid webhook response: webhook returned response.patchType but not response.patch');
  t.is(verify(review({ allowed: true, patchType: 'JSONPatch' }), false), 'received invalid webhook response: validating webhook may not return response.patchType');
  t.is(verify(review({ allowed: true }, { apiVersion: 'admission.k8s.io/v1', kind: 'Review' })), 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=Review');
  t.is(verify({ ...review({ allowed: true }), response: { allowed: true } }), `received invalid webhook response: expected response.uid="${uid}", got ""`);
  // v1beta1 answers were never checked for uid or kind, and a patch is taken as a JSON patch
  const beta = verifyAdmissionResponse(uid, true, { response: { allowed: true, patch: 'W10=' } }, 'v1beta1');
  t.is(beta.patchType, 'JSONPatch');
});
