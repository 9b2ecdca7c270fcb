import { defineModule, type Module } from '../../../core/contracts/module.js';
import { Tokens } from '../../../core/contracts/tokens.js';
import { JsonCodec } from './codec.js';

export { JsonCodec } from './codec.js';

/** Registers the JSON codec (`application/json`), kube's default wire format: register it first. */
export function jsonCodec(): Module {
  return defineModule('json-codec', (c) => {
    c.register(Tokens.Codec, { useValue: new JsonCodec() });
  });
}
