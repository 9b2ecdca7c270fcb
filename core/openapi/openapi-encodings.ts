import { parseAccept } from '../codec/negotiation.js';

/** How an OpenAPI document is answered: as JSON or as gnostic protobuf, and the Content-Type that says so. */
export interface OpenApiEncoding {
  encoding: 'json' | 'protobuf';
  contentType: string;
}

const json: OpenApiEncoding = { encoding: 'json', contentType: 'application/json' };

/**
 * The media types kube-openapi's handlers answer: JSON, and gnostic protobuf under its current name
 * (`….v1.0+protobuf`) and its deprecated one (`…@v1.0+protobuf`, which client-go still sends), both answered with
 * the current name.
 */
const accepted = {
  v2: servedTypes('application/com.github.proto-openapi.spec.v2'),
  v3: servedTypes('application/com.github.proto-openapi.spec.v3'),
};

function servedTypes(protobufBase: string): [mediaType: string, encoding: OpenApiEncoding][] {
  const protobuf: OpenApiEncoding = { encoding: 'protobuf', contentType: `${protobufBase}.v1.0+protobuf` };
  return [
    ['application/json', json],
    [`${protobufBase}.v1.0+protobuf`, protobuf],
    [`${protobufBase}@v1.0+protobuf`, protobuf],
  ];
}

/**
 * The encoding of /openapi/v2 or /openapi/v3/<group-version> for an Accept header, as kube-openapi picks it: the Accept
 * clauses best first (no header means `*\/*`), each matched against the served types by type and subtype, either of
 * which may be `*`; the first match wins, so `*\/*` is JSON. Undefined when nothing matches (kube answers 406).
 */
export function negotiateOpenApi(accept: string | undefined, version: 'v2' | 'v3'): OpenApiEncoding | undefined {
  for (const range of parseAccept(accept)) {
    const [type, subtype] = range.type.split('/');
    for (const [mediaType, encoding] of accepted[version]) {
      const [servedType, servedSubtype] = mediaType.split('/');
      if ((type === '*' || type === servedType) && (subtype === '*' || subtype === servedSubtype)) return encoding;
    }
  }
  return undefined;
}
