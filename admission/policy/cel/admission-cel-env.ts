/**
 * The CEL environments of admission expressions (Kubernetes' admission/plugin/cel compiler): Kubernetes' base
 * libraries plus `object`, `oldObject` (dyn), `request` (kubernetes.AdmissionRequest), `namespaceObject`
 * (kubernetes.Namespace), and, as the expression kind allows, `params` (dyn) and `authorizer` /
 * `authorizer.requestResource`. One environment per combination, built once.
 */
import { Env } from '../../../lib/cel/env.js';
import { kubernetesEnv } from '../../../lib/cel/libraries.js';
import { T } from '../../../lib/cel/types.js';
import { NAMESPACE_TYPE, REQUEST_TYPE } from './admission-cel-types.js';
import { AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE, registerAuthorizerLibrary } from './authorizer-library.js';

/** Which optional variables an expression may use (cel.OptionalVariableDeclarations). */
export interface AdmissionVariables {
  hasParams: boolean;
  hasAuthorizer: boolean;
}

const envs = new Map<string, Env>();

export function admissionEnv(vars: AdmissionVariables): Env {
  const key = `${vars.hasParams}/${vars.hasAuthorizer}`;
  let env = envs.get(key);
  if (!env) {
    env = kubernetesEnv()
      .extend()
      .declare('object', T.dyn)
      .declare('oldObject', T.dyn)
      .declare('namespaceObject', NAMESPACE_TYPE)
      .declare('request', REQUEST_TYPE);
    // the authorization library's functions are always known; only the variables depend on the expression kind
    registerAuthorizerLibrary(env.functions);
    if (vars.hasParams) env.declare('params', T.dyn);
    if (vars.hasAuthorizer) env.declare('authorizer', AUTHORIZER_TYPE).declare('authorizer.requestResource', RESOURCE_CHECK_TYPE);
    envs.set(key, env);
  }
  return env;
}
