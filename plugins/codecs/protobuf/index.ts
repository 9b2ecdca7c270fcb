import { defineModule, type Module } from '../../../core/contracts/module.js';
import { Tokens } from '../../../core/contracts/tokens.js';
import { KubeProtobufCodec } from './codec.js';
import { customResourceProtobufKinds } from './custom-resources/index.js';

export { KubeProtobufCodec, decodeKubeProtobuf, encodeKubeProtobuf, type KindLookup } from './codec.js';
export { kubeProtobufMediaType, unwrapKubeProtobuf, wrapKubeProtobuf, type KubeProtobufEnvelope } from './envelope.js';
export { builtinProtobufKind, messageKind, type ProtobufKind } from './kinds.js';
export { messageFromJSON, messageToJSON } from './converter.js';
export { objectMetaFromJSON, objectMetaToJSON, listMetaFromJSON, listMetaToJSON } from './object-meta.js';
export { KubeTypes, kubeProtoRoot, kubeType, packages } from './schema.js';

/**
 * Registers the Kubernetes protobuf codec (`application/vnd.kubernetes.protobuf`): built-in and meta kinds, and the
 * custom resources whose CRDs carry protobuf field numbers.
 */
export function kubeProtobufCodec(): Module {
  return defineModule('protobuf-codec', (c) => {
    c.register(Tokens.Codec, { useValue: new KubeProtobufCodec(customResourceProtobufKinds(c.resolve(Tokens.Registry))) });
  });
}
