import { Tokens } from './tokens.js';

/**
 * The tokens a user's module registers providers under: kapi's public contracts. The others (the registry of served
 * types, the write pipeline, the namespace lookup) are kapi's inner wiring, free to change; kapi's own code uses the
 * full `Tokens` of core/tokens.ts.
 */
export const PublicTokens = {
  KVStore: Tokens.KVStore,
  Authenticator: Tokens.Authenticator,
  Authorizer: Tokens.Authorizer,
  HealthCheck: Tokens.HealthCheck,
  BuiltinResource: Tokens.BuiltinResource,
  Route: Tokens.Route,
  Controller: Tokens.Controller,
  AdmissionPlugin: Tokens.AdmissionPlugin,
  Codec: Tokens.Codec,
  Config: Tokens.Config,
} as const;
