import { fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { goJsonSyntaxError, unmarshalValueError } from '../../lib/go/json-errors.js';
import { byteSize, immutableCauses, keyCauses, maxDataSize, sortedKeys, type DataMap } from '../core-v1/data-maps.js';
import { secretKeys, secretTypes, serviceAccountNameKey } from './secret-types.js';

/** The fields of a Secret the validation reads (decoded, defaulted, stringData merged into data). */
export interface SecretFields {
  metadata?: { annotations?: Record<string, string> };
  immutable?: boolean;
  data?: DataMap;
  type?: string;
}

/** Shown instead of a docker config that is not JSON: kube never echoes secret data in an error. */
const redacted = '<secret contents redacted>';

/** encoding/json's error unmarshalling the bytes into a `map[string]interface{}`, or undefined. */
function jsonObjectError(base64: string): string | undefined {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  const syntax = goJsonSyntaxError(text);
  if (syntax) return syntax;
  const value: unknown = JSON.parse(text);
  return value === null || (typeof value === 'object' && !Array.isArray(value)) ? undefined : unmarshalValueError(value, 'map[string]interface {}');
}

/** A docker config key the type requires, holding a JSON object. */
function dockerConfigCauses(data: DataMap, key: string): StatusCause[] {
  if (!Object.hasOwn(data, key)) return [fieldErrors.required(`data[${key}]`)];
  const error = jsonObjectError(data[key]!);
  return error ? [fieldErrors.invalid(`data[${key}]`, redacted, error)] : [];
}

/** The keys (and annotation) each Secret type requires, as kube's ValidateSecret checks them. */
function typeCauses(secret: SecretFields): StatusCause[] {
  const data = secret.data ?? {};
  const missing = (key: string) => (Object.hasOwn(data, key) ? [] : [fieldErrors.required(`data[${key}]`)]);
  switch (secret.type) {
    case secretTypes.serviceAccountToken:
      return secret.metadata?.annotations?.[serviceAccountNameKey] ? [] : [fieldErrors.required(`metadata.annotations[${serviceAccountNameKey}]`)];
    case secretTypes.dockercfg:
      return dockerConfigCauses(data, secretKeys.dockercfg);
    case secretTypes.dockerConfigJson:
      return dockerConfigCauses(data, secretKeys.dockerConfigJson);
    case secretTypes.basicAuth:
      // Either may be empty, but one of them must be there.
      if (Object.hasOwn(data, secretKeys.basicAuthUsername) || Object.hasOwn(data, secretKeys.basicAuthPassword)) return [];
      return [fieldErrors.required(`data[${secretKeys.basicAuthUsername}]`), fieldErrors.required(`data[${secretKeys.basicAuthPassword}]`)];
    case secretTypes.sshAuth:
      return data[secretKeys.sshAuthPrivateKey] ? [] : [fieldErrors.required(`data[${secretKeys.sshAuthPrivateKey}]`)];
    case secretTypes.tls:
      return [...missing(secretKeys.tlsCert), ...missing(secretKeys.tlsPrivateKey)];
    default:
      return [];
  }
}

/** kube's ValidateSecret beyond metadata: keys, the total size of the values, the type's required keys. */
export function secretCauses(secret: SecretFields): StatusCause[] {
  const causes = sortedKeys(secret.data).flatMap((key) => keyCauses('data', key));
  let size = 0;
  for (const value of Object.values(secret.data ?? {})) size += byteSize(value);
  if (size > maxDataSize) causes.push(fieldErrors.tooLong('data', maxDataSize));
  return [...causes, ...typeCauses(secret)];
}

/** kube's ValidateSecretUpdate: the type never changes; an immutable Secret keeps its data and `immutable: true`. */
export function secretUpdateCauses(secret: SecretFields, old: SecretFields): StatusCause[] {
  const causes: StatusCause[] = secret.type === old.type ? [] : [fieldErrors.invalid('type', secret.type ?? '', 'field is immutable')];
  causes.push(...immutableCauses(secret as Record<string, unknown>, old as Record<string, unknown>, ['data']));
  return [...causes, ...secretCauses(secret)];
}
