// Webhook configuration decoding, defaults and validation details that the integration tests do not reach.
import test from 'ava';
import { webhookConfigurationGoTypes } from '../../../../builtin/admissionregistration/webhook-configuration-go-types.js';
import { fillGoZeroValues, goDecodeError } from '../../../../lib/go/json-decoding.js';
import { applyWebhookConfigurationDefaults } from '../../../../builtin/admissionregistration/webhook-configuration-defaults.js';
import { validateWebhookConfiguration } from '../../../../builtin/admissionregistration/webhook-configuration-validation.js';
import { parseGoUrl } from '../../../../lib/go/go-url.js';

const compiles = () => undefined;
const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'a.b.c',
  clientConfig: { url: 'https://x.example.com/p' },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const causes = (webhooks: unknown[], mutating = false) =>
  validateWebhookConfiguration({ metadata: { name: 'c' }, webhooks } as never, mutating, compiles).map((c) => `${c.field}: ${c.message}`);

test('nulls in lists and maps decode to the zero values Go leaves, then validate like them', (t) => {
  const obj: any = { webhooks: [hook({ admissionReviewVersions: [null, 'v1'], objectSelector: { matchLabels: { a: null } } }), null] };
  t.is(goDecodeError(obj, webhookConfigurationGoTypes.ValidatingWebhookConfiguration), undefined);
  fillGoZeroValues(obj, webhookConfigurationGoTypes.ValidatingWebhookConfiguration);
  t.deepEqual(obj.webhooks[0].admissionReviewVersions, ['', 'v1']);
  t.deepEqual(obj.webhooks[0].objectSelector, { matchLabels: { a: '' } });
  t.deepEqual(obj.webhooks[1], {});
  applyWebhookConfigurationDefaults(obj, false);
  t.true(causes(obj.webhooks).includes('webhooks[1].name: Required value'));
  t.true(causes(obj.webhooks)[0].startsWith('webhooks[0].admissionReviewVersions[0]: Invalid value: "": a DNS-1035 label must consist of'));
});

test('a wrong type anywhere is a 400 naming the Go field and type', (t) => {
  t.is(
    goDecodeError({ webhooks: [hook({ rules: [{ operations: 'CREATE' }] })] }, webhookConfigurationGoTypes.MutatingWebhookConfiguration),
    'json: cannot unmarshal string into Go struct field RuleWithOperations.webhooks.rules.operations of type []v1.OperationType',
  );
  const bundle = goDecodeError({ webhooks: [hook({ clientConfig: { url: 'https://x', caBundle: 'a*' } })] }, webhookConfigurationGoTypes.ValidatingWebhookConfiguration);
  t.is(bundle, 'illegal base64 data at input byte 1');
});

test('URLs are split as Go does', (t) => {
  t.deepEqual(parseGoUrl('not a url'), { scheme: '', host: '', rawQuery: '', fragment: '' });
  t.deepEqual(parseGoUrl('https://u@h:443/p?q#f'), { scheme: 'https', user: 'u', host: 'h:443', rawQuery: 'q', fragment: 'f' });
  t.deepEqual(parseGoUrl('https://h:port/'), { error: 'parse "https://h:port/": invalid port ":port" after host' });
  t.deepEqual(parseGoUrl(':x'), { error: 'parse ":x": missing protocol scheme' });
  t.deepEqual(causes([hook({ clientConfig: { url: 'not a url' } })]), [
    'webhooks[0].clientConfig.url: Invalid value: "": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
  ]);
});

test('service references, resource patterns and selectors', (t) => {
  t.deepEqual(causes([hook({ clientConfig: { service: { namespace: '', name: 's', port: 70000, path: 'x//Y' } } })]), [
    'webhooks[0].clientConfig.service.namespace: Required value',
    'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    "webhooks[0].clientConfig.service.path: Invalid value: \"x//Y\": must start with a '/'",
    // like Go, the first character is dropped whatever it is: "//Y" splits into "", "", "Y"
    'webhooks[0].clientConfig.service.path: Invalid value: "x//Y": segment[0] may not be empty',
    'webhooks[0].clientConfig.service.path: Invalid value: "x//Y": segment[1] may not be empty',
    "webhooks[0].clientConfig.service.path: Invalid value: \"x//Y\": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  const rules = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['pods/*', 'pods/log', '*/status', 'widgets/status', ''] }];
  t.deepEqual(causes([hook({ rules })]), [
    'webhooks[0].rules[0].resources[1]: Invalid value: "pods/log": if \'pods/*\' is present, must not specify pods/log',
    'webhooks[0].rules[0].resources[3]: Invalid value: "widgets/status": if \'*/status\' is present, must not specify widgets/status',
    'webhooks[0].rules[0].resources[4]: Required value',
  ]);
  const selector = { matchExpressions: [{ key: 'a', operator: 'In' }, { key: 'b', operator: 'Exists', values: ['x'] }, { key: 'c', operator: 'Near' }] };
  t.deepEqual(causes([hook({ namespaceSelector: selector })]), [
    "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "webhooks[0].namespaceSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    'webhooks[0].namespaceSelector.matchExpressions[2].operator: Invalid value: "Near": not a valid selector operator',
  ]);
});
