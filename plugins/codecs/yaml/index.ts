import { defineModule, type Module } from '../../../core/contracts/module.js';
import { Tokens } from '../../../core/contracts/tokens.js';
import { YamlCodec } from './codec.js';

export { YamlCodec } from './codec.js';

/** Registers the YAML codec (`application/yaml`, `application/apply-patch+yaml`). */
export function yamlCodec(): Module {
  return defineModule('yaml-codec', (c) => {
    c.register(Tokens.Codec, { useValue: new YamlCodec() });
  });
}
