import test from 'ava';
import { conversionReviewRequest, readConversionResponse, reviewVersionFor, ConversionReviewError } from '../../../../core/conversion/conversion-review.js';
import type { WebhookResponse } from '../../../../lib/webhook/webhook-client.js';

const uid = '7c1f9a2e-0000-4000-8000-000000000001';
const json = (body: unknown, status = 200): WebhookResponse => ({ status, body: Buffer.from(JSON.stringify(body)), contentType: 'application/json' });
const raw = (text: string, status = 200, contentType = ''): WebhookResponse => ({ status, body: Buffer.from(text), contentType });
const v1Answer = (response: unknown) => json({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response });

function failure(t: any, res: WebhookResponse, message: string, version: 'v1' | 'v1beta1' = 'v1'): void {
  const err = t.throws(() => readConversionResponse(res, version, uid), { instanceOf: ConversionReviewError });
  t.is(err?.message, message);
}

test('the review version is the first of the webhook list kube knows', (t) => {
  t.is(reviewVersionFor(['v1', 'v1beta1']), 'v1');
  t.is(reviewVersionFor(['v2', 'v1beta1', 'v1']), 'v1beta1');
  t.is(reviewVersionFor(['v3']), undefined);
});

test('the request is a ConversionReview with the uid, desired version and objects, and kube empty response', (t) => {
  const objects = [{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }];
  t.deepEqual(JSON.parse(JSON.stringify(conversionReviewRequest('v1', uid, 'example.com/v2', objects))), {
    kind: 'ConversionReview',
    apiVersion: 'apiextensions.k8s.io/v1',
    request: { uid, desiredAPIVersion: 'example.com/v2', objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  });
  t.is(conversionReviewRequest('v1beta1', uid, 'example.com/v2', objects).apiVersion, 'apiextensions.k8s.io/v1beta1');
});

test('a successful answer yields its converted objects', (t) => {
  const objects = [{ apiVersion: 'example.com/v2', kind: 'Widget' }];
  t.deepEqual(readConversionResponse(v1Answer({ uid, convertedObjects: objects, result: { status: 'Success' } }), 'v1', uid), objects);
  t.deepEqual(readConversionResponse(v1Answer({ uid, result: { status: 'Success' } }), 'v1', uid), []);
});

test('HTTP failures read as client-go reports them', (t) => {
  failure(t, raw('', 200, 'application/json'), '0-length response with status code: 200 and content type: application/json');
  failure(t, raw('nope', 400), 'the server rejected our request for an unknown reason');
  failure(t, raw('boom', 500, 'text/plain'), 'an error on the server ("boom") has prevented the request from succeeding');
  failure(t, json({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'webhook says no' }, 403), 'webhook says no');
});

test('bodies that do not decode as a ConversionReview', (t) => {
  failure(t, raw('garbage'), "couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value");
  failure(t, raw('{"apiVersion":'), "couldn't get version/kind; json parse error: unexpected end of JSON input");
  failure(
    t,
    raw('[1]'),
    'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
  );
  failure(t, json({ apiVersion: 1 }), "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string");
  failure(t, json({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview' }), 'converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion');
  failure(
    t,
    json({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: 'x' }),
    'json: cannot unmarshal string into Go struct field ConversionReview.response of type v1.ConversionResponse',
  );
  failure(t, v1Answer({ uid: 5 }), 'json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID');
  failure(t, v1Answer({ uid, convertedObjects: {} }), 'json: cannot unmarshal object into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension');
  failure(t, v1Answer({ uid, result: { status: true } }), 'json: cannot unmarshal bool into Go struct field Status.response.result.status of type string');
});

test('v1 answers must be a v1 ConversionReview for the request uid, with a Success result', (t) => {
  failure(t, json({ response: { uid } }), 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=');
  failure(t, json({ apiVersion: 'v1', kind: 'Status' }), 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /v1, Kind=Status');
  failure(t, json({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }), 'no response provided');
  failure(t, v1Answer({ uid: 'other', result: { status: 'Success' } }), `expected response.uid="${uid}", got "other"`);
  failure(t, v1Answer({ uid, result: { status: 'Failure', message: 'cannot convert' } }), 'cannot convert');
  failure(t, v1Answer({ uid, result: { status: 'Failure' } }), "response.result.status was 'Failure', not 'Success'");
  failure(t, v1Answer({ uid }), "response.result.status was '', not 'Success'");
});

test('v1beta1 answers are not checked for kind or uid, as kube does for compatibility', (t) => {
  const objects = [{ apiVersion: 'example.com/v2', kind: 'Widget' }];
  t.deepEqual(readConversionResponse(json({ response: { uid: 'other', convertedObjects: objects, result: { status: 'Success' } } }), 'v1beta1', uid), objects);
  failure(t, json({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }), 'converting (v1.ConversionReview) to (v1beta1.ConversionReview): unknown conversion', 'v1beta1');
  failure(t, json({}), 'no response provided', 'v1beta1');
});
