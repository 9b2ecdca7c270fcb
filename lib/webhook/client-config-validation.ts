import { X509Certificate } from 'node:crypto';
import type { FieldError } from '../k8s/field-errors.js';
import { fieldErrors } from '../k8s/field-errors.js';
import { isDNS1123Subdomain } from '../k8s/names.js';
import { parseGoUrl } from '../go/go-url.js';
import type { WebhookClientConfig } from './webhook-client-config.js';

/** k8s.io/apiserver webhook.ValidateWebhookURL with https required (`path`: the url field). */
export function validateWebhookUrl(url: string, path: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = parseGoUrl(url);
  if ('error' in u) return [fieldErrors.required(path, `url must be a valid URL: ${u.error}${form}`)];
  const causes: FieldError[] = [];
  if (u.scheme !== 'https') causes.push(fieldErrors.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) causes.push(fieldErrors.invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined) causes.push(fieldErrors.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) causes.push(fieldErrors.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) causes.push(fieldErrors.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return causes;
}

/** k8s.io/apiserver webhook.ValidateWebhookService (`path`: the service field; the port already defaulted to 443). */
export function validateWebhookService(service: NonNullable<WebhookClientConfig['service']>, path: string): FieldError[] {
  const causes: FieldError[] = [];
  if (!service.name) causes.push(fieldErrors.required(`${path}.name`));
  if (!service.namespace) causes.push(fieldErrors.required(`${path}.namespace`));
  const port = service.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) causes.push(fieldErrors.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === null || urlPath === '/' || urlPath === '') return causes;
  if (urlPath === '//') return [...causes, fieldErrors.invalid(`${path}.path`, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) causes.push(fieldErrors.invalid(`${path}.path`, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (!step) causes.push(fieldErrors.invalid(`${path}.path`, urlPath, `segment[${i}] may not be empty`));
    else for (const failure of isDNS1123Subdomain(step)) causes.push(fieldErrors.invalid(`${path}.path`, urlPath, `segment[${i}]: ${failure}`));
  });
  return causes;
}

/**
 * k8s.io/apiserver webhook.ValidateCABundle: the bundle must give client-go a CA pool (at least one PEM
 * CERTIFICATE block that parses). The message is client-go's; the bad value prints as Go's %#v of the bytes.
 */
export function validateCaBundle(caBundle: string, path: string): FieldError[] {
  const bytes = Buffer.from(caBundle, 'base64');
  const problem = caBundleProblem(bytes.toString('latin1'));
  if (!problem) return [];
  const printed = `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
  return [{ reason: 'FieldValueInvalid', message: `Invalid value: ${printed}: unable to load root certificates: ${problem}`, field: path }];
}

/** Why PEM data yields no CA pool, as client-go's createErrorParsingCAData tells it; undefined when it does. */
function caBundleProblem(pem: string): string | undefined {
  const block = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----[^\n]*\n?/g;
  let parsed = false;
  let rest = pem;
  const failures: string[] = [];
  for (;;) {
    block.lastIndex = 0;
    const m = block.exec(rest);
    if (!m) {
      if (rest.length > 0) failures.push('unable to parse bytes as PEM block');
      break;
    }
    rest = rest.slice(m.index + m[0].length);
    const headers = /^[^\n]*:/.test(m[2]!);
    if (m[1] !== 'CERTIFICATE' || headers) continue;
    try {
      new X509Certificate(Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64'));
      parsed = true;
    } catch {
      failures.push('failed to parse certificate: x509: malformed certificate');
    }
  }
  if (parsed) return undefined;
  return failures[0] ?? 'no valid certificate authority data seen';
}
