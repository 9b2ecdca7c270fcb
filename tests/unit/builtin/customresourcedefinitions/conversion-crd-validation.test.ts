import test from 'ava';
import { validateCrd } from '../../../../builtin/customresourcedefinitions/crd-validation.js';
import { crdResource } from '../../../../builtin/customresourcedefinitions/crd-resource.js';
import type { Crd } from '../../../../builtin/customresourcedefinitions/crd-types.js';
import { createCa } from '../../../../plugins/auth/certificates.js';

function crd(conversion: unknown, extra: Record<string, unknown> = {}): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      conversion,
      ...extra,
    },
  } as Crd;
}

const webhook = (clientConfig: unknown, conversionReviewVersions: unknown = ['v1']) => ({ strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions } });
const messages = (c: Crd, old?: Crd) => validateCrd(c, old).map((x) => `${x.field}: ${x.message}`);

test('a webhook with a https url or a service is valid; strategy None needs nothing', (t) => {
  t.deepEqual(messages(crd(webhook({ url: 'https://conv.example.com/convert' }))), []);
  t.deepEqual(messages(crd(webhook({ service: { namespace: 'ns', name: 'conv', port: 8443, path: '/convert' } }, ['v1beta1', 'v1']))), []);
  t.deepEqual(messages(crd({ strategy: 'None' })), []);
});

test('strategy must be None or Webhook, and None with preserveUnknownFields only', (t) => {
  t.deepEqual(messages(crd({ strategy: '' })), ['spec.conversion.strategy: Required value']);
  t.deepEqual(messages(crd({ strategy: 'Magic' })), ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']);
  t.deepEqual(messages(crd(webhook({ url: 'https://c.example.com' }), { preserveUnknownFields: true })), [
    'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
  ]);
});

test('client config: exactly one of url and service, an https url without user, query or fragment', (t) => {
  t.deepEqual(messages(crd({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } })), ['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook']);
  t.deepEqual(messages(crd(webhook({}))), ['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required']);
  t.deepEqual(messages(crd(webhook({ url: 'https://a.example.com', service: { namespace: 'ns', name: 'n' } }))), [
    'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
  ]);
  const form = '; desired format: https://host[/path]';
  t.deepEqual(messages(crd(webhook({ url: 'http://u:p@host/x?a=b#f' }))), [
    `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`,
    'spec.conversion.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    'spec.conversion.webhookClientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
    'spec.conversion.webhookClientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
  ]);
  t.deepEqual(messages(crd(webhook({ url: '/convert' }))), [
    `spec.conversion.webhookClientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme${form}`,
    `spec.conversion.webhookClientConfig.url: Invalid value: "": host must be specified${form}`,
  ]);
});

test('client config: a service needs a name, a namespace, a valid port and path', (t) => {
  t.deepEqual(messages(crd(webhook({ service: { port: 70000, path: 'a//b' } }))), [
    'spec.conversion.webhookClientConfig.service.name: Required value',
    'spec.conversion.webhookClientConfig.service.namespace: Required value',
    'spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    `spec.conversion.webhookClientConfig.service.path: Invalid value: "a//b": must start with a '/'`,
    // kube checks what follows the first character, "//b": segments "", "" and "b".
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//b": segment[0] may not be empty',
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//b": segment[1] may not be empty',
  ]);
});

test('the service port defaults to 443 as kube defaults v1 CRDs', (t) => {
  const c = crd(webhook({ service: { namespace: 'ns', name: 'conv' } }));
  crdResource().strategy!.prepareForCreate!(c);
  t.deepEqual((c.spec.conversion as any).webhook.clientConfig.service, { namespace: 'ns', name: 'conv', port: 443 });
});

test('conversionReviewVersions: required, unique, DNS-1035 labels, including v1 or v1beta1', (t) => {
  const url = { url: 'https://c.example.com' };
  t.deepEqual(messages(crd(webhook(url, []))), ['spec.conversion.conversionReviewVersions: Required value']);
  t.deepEqual(messages(crd(webhook(url, ['v1', 'v1', 'V2']))), [
    'spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version',
    `spec.conversion.conversionReviewVersions[2]: Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  ]);
  t.deepEqual(messages(crd(webhook(url, ['v2']))), ['spec.conversion.conversionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1']);
  // An update may keep review versions that were already unrecognized.
  t.deepEqual(messages(crd(webhook(url, ['v3'])), crd(webhook(url, ['v2']))), []);
});

test('webhook settings are forbidden unless the strategy is Webhook', (t) => {
  t.deepEqual(messages(crd({ strategy: 'None', webhook: { clientConfig: { url: 'https://c.example.com' }, conversionReviewVersions: ['v1'] } })), [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
});

test('caBundle: any on create; on update of an established CRD, it must hold a certificate', async (t) => {
  const bad = Buffer.from('not a certificate').toString('base64');
  const good = Buffer.from((await createCa('test-ca')).certPem).toString('base64');
  const url = 'https://c.example.com';
  t.deepEqual(messages(crd(webhook({ url, caBundle: bad }))), []);
  const established = { ...crd(webhook({ url, caBundle: good })), status: { conditions: [{ type: 'Established', status: 'True' as const }] } };
  t.deepEqual(messages(crd(webhook({ url, caBundle: good })), established), []);
  const [problem] = messages(crd(webhook({ url, caBundle: bad })), established);
  t.is(
    problem,
    'spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0x6e, 0x6f, 0x74, 0x20, 0x61, 0x20, 0x63, 0x65, 0x72, 0x74, 0x69, 0x66, 0x69, 0x63, 0x61, 0x74, 0x65}: unable to load root certificates: unable to parse bytes as PEM block',
  );
});
