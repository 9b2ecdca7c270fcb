import test from 'ava';
import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
} from '../../../../lib/k8s/names.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const nameRegexMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

test('DNS-1123 subdomains', (t) => {
  for (const ok of ['a', 'example.com', 'a-b.c-d', '0', 'a'.repeat(253)]) t.deepEqual(isDNS1123Subdomain(ok), [], ok);
  t.deepEqual(isDNS1123Subdomain('Bad_Name'), [subdomainMsg]);
  t.deepEqual(isDNS1123Subdomain(''), [subdomainMsg]);
  t.deepEqual(isDNS1123Subdomain('a-'), [subdomainMsg]);
  t.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  t.deepEqual(isDNS1123Subdomain(`${'a'.repeat(254)}-`), ['must be no more than 253 characters', subdomainMsg]);
});

test('DNS-1123 labels', (t) => {
  t.deepEqual(isDNS1123Label('my-name'), []);
  t.deepEqual(isDNS1123Label('a'.repeat(63)), []);
  t.deepEqual(isDNS1123Label('a.b'), [labelMsg]);
  t.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('qualified names (label and annotation keys)', (t) => {
  for (const ok of ['a', 'MyName', 'my.name', 'example.com/Name_1', `${'a'.repeat(253)}/${'b'.repeat(63)}`]) t.deepEqual(isQualifiedName(ok), [], ok);
  t.deepEqual(isQualifiedName('-bad'), [`name part ${nameRegexMsg}`]);
  t.deepEqual(isQualifiedName(''), ['name part must be non-empty', `name part ${nameRegexMsg}`]);
  t.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
  t.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
  t.deepEqual(isQualifiedName('example.com/'), ['name part must be non-empty', `name part ${nameRegexMsg}`]);
  t.deepEqual(isQualifiedName('Example.com/a'), [`prefix part ${subdomainMsg}`]);
  t.deepEqual(isQualifiedName('a/b/c'), [
    `a qualified name ${nameRegexMsg} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
  ]);
});

test('label values', (t) => {
  for (const ok of ['', 'MyValue', 'my_value', '12345', 'a.b-c']) t.deepEqual(isValidLabelValue(ok), [], ok);
  t.deepEqual(isValidLabelValue('bad value'), [
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ]);
  t.is(isValidLabelValue('a'.repeat(64))[0], 'must be no more than 63 characters');
});

test('path segment names', (t) => {
  t.deepEqual(isValidPathSegmentName('Any_Name:ok'), []);
  t.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
  t.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
  t.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
  t.deepEqual(nameIsPathSegment('.', true), []);
  t.deepEqual(nameIsPathSegment('a/', true), ["may not contain '/'"]);
});

test('generateName prefixes may end with a dash', (t) => {
  t.deepEqual(nameIsDNSSubdomain('web-', true), []);
  t.deepEqual(nameIsDNSSubdomain('web-', false), [subdomainMsg]);
  t.deepEqual(nameIsDNSLabel('ns-', true), []);
  t.deepEqual(nameIsDNSSubdomain('Web-', true), [subdomainMsg]);
});

test('ConfigMap and Secret keys: file names a volume can hold', (t) => {
  const keyMsg =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  for (const ok of ['a', '.dockerconfigjson', 'tls.crt', 'KEY_NAME', '-', '.a..b', 'a'.repeat(253)]) t.deepEqual(isConfigMapKey(ok), [], ok);
  t.deepEqual(isConfigMapKey(''), [keyMsg]);
  t.deepEqual(isConfigMapKey('a/b'), [keyMsg]);
  t.deepEqual(isConfigMapKey('.'), ["must not be '.'"]);
  t.deepEqual(isConfigMapKey('..'), ["must not be '..'"]);
  t.deepEqual(isConfigMapKey('..data'), ["must not start with '..'"]);
  t.deepEqual(isConfigMapKey(`..${'é'.repeat(126)}`), ['must be no more than 253 characters', keyMsg, "must not start with '..'"]);
});
