import { parseAccept } from '../codec/negotiation.js';

/**
 * Whether an Accept header takes JSON, the one OpenAPI encoding kapi serves (kube-openapi also serves protobuf; a
 * client asking only for that gets 406). No Accept header means anything.
 */
export function acceptsJson(accept: string | undefined): boolean {
  return parseAccept(accept).some((r) => r.type === 'application/json' || r.type === 'application/*' || r.type === '*/*');
}
