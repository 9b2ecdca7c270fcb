import protobuf from 'protobufjs';
import { gnosticMessage } from './gnostic-message.js';
import { gnosticV2Proto } from './gnostic-v2-proto.js';
import { gnosticV3Proto } from './gnostic-v3-proto.js';

/** gnostic's Document messages, parsed once with the field names as written (`vendor_extension`, `_ref`). */
function documentType(protoText: string, name: string): protobuf.Type {
  const root = protobuf.parse(protoText, new protobuf.Root(), { keepCase: true }).root;
  root.resolveAll();
  return root.lookupType(name);
}

const swaggerDocument = documentType(gnosticV2Proto, 'openapi.v2.Document');
const openapiV3Document = documentType(gnosticV3Proto, 'openapi.v3.Document');

/** /openapi/v2 as protobuf: the Swagger JSON read into gnostic's `openapi_v2.Document` (kube-openapi's ToProtoBinary). */
export function swaggerProtobuf(json: string): Uint8Array {
  return swaggerDocument.encode(gnosticMessage(swaggerDocument, JSON.parse(json))).finish();
}

/** A group-version's OpenAPI v3 JSON as gnostic's `openapi_v3.Document` (kube-openapi's ToV3ProtoBinary). */
export function openapiV3Protobuf(json: string): Uint8Array {
  return openapiV3Document.encode(gnosticMessage(openapiV3Document, JSON.parse(json))).finish();
}
