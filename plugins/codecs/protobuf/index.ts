import type { Module } from '../../../core/module.js';
import { Tokens } from '../../../core/tokens.js';
import { KubeProtobufCodec } from './codec.js';

export { KubeProtobufCodec, decodeKubeProtobuf, encodeKubeProtobuf } from './codec.js';
export { kubeProtobufMagic, kubeProtobufMediaType, unwrapKubeProtobuf, wrapKubeProtobuf, type KubeProtobufEnvelope } from './envelope.js';
export { supportsKubeProtobuf } from './kinds.js';
export { KubeTypes, kubeProtoRoot } from './schema.js';

/** Registers the Kubernetes protobuf request-body codec (`application/vnd.kubernetes.protobuf`). */
export function kubeProtobufCodec(): Module {
  return (c) => {
    c.register(Tokens.BodyCodec, { useValue: new KubeProtobufCodec() });
  };
}
