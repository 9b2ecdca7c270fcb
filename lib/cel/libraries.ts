/**
 * The CEL environments kapi uses: Kubernetes' base environment for CRD validation rules (the v1.32 libraries: URLs,
 * regex, lists, quantity, IP/CIDR, format, sets, strings v2, optional types, two-variable comprehensions, plus the
 * semver library Kubernetes adds in v1.33) and the environment the CEL conformance suites run in.
 */
import { walkExpr, type Expr } from './ast.js';
import type { CheckedAst } from './checker.js';
import { Env, type Issue } from './env.js';
import { validateFormatCalls } from './ext-format-legacy.js';
import { registerStrings } from './ext-strings.js';
import { FORMAT_TYPE, registerKubernetesFormat } from './k8s-format.js';
import { CIDR_TYPE, IP_TYPE, registerKubernetesIP } from './k8s-ip.js';
import { registerKubernetesLists, registerSets } from './k8s-lists.js';
import { QUANTITY_TYPE, registerKubernetesQuantity } from './k8s-quantity.js';
import { registerKubernetesRegex } from './k8s-regex.js';
import { SEMVER_TYPE, registerKubernetesSemver } from './k8s-semver.js';
import { URL_TYPE, registerKubernetesURLs } from './k8s-urls.js';
import { compileRE2 } from './regex.js';
import { parseGoDuration } from '../go/duration.js';
import { parseRFC3339 } from './time.js';
import { MAX_TIMESTAMP_SECONDS, MIN_TIMESTAMP_SECONDS } from './values.js';

let kubernetesBase: Env | undefined;

/** Kubernetes' base CEL environment (homogeneous aggregate literals, all libraries); shared, extend it to declare. */
export function kubernetesEnv(): Env {
  if (!kubernetesBase) {
    const env = new Env({ homogeneousAggregateLiterals: true });
    registerStrings(env.functions, { version: 2 });
    env.homogeneousExemptFunctions.add('format');
    registerSets(env.functions);
    registerKubernetesLists(env.functions);
    registerKubernetesRegex(env.functions);
    registerKubernetesURLs(env.functions);
    registerKubernetesQuantity(env.functions);
    registerKubernetesIP(env.functions);
    registerKubernetesFormat(env.functions);
    registerKubernetesSemver(env.functions);
    env.astValidators.push(validateLiterals, validateFormatCalls);
    // the libraries' types can be named in expressions (`type(ip('::1')) == net.IP`)
    for (const t of [IP_TYPE, CIDR_TYPE, QUANTITY_TYPE, URL_TYPE, SEMVER_TYPE, FORMAT_TYPE]) if (t.kind === 'opaque') env.typeIdents.set(t.name, t);
    kubernetesBase = env;
  }
  return kubernetesBase;
}

/** The environment of the cel-spec conformance tests (heterogeneous literals allowed, all extension libraries). */
export function conformanceEnv(): Env {
  const env = new Env({ homogeneousAggregateLiterals: false, enableIdentEscapeSyntax: true });
  registerStrings(env.functions);
  registerSets(env.functions);
  return env;
}

function constString(e: Expr | undefined): string | undefined {
  return e?.kind === 'const' && typeof e.value === 'string' ? e.value : undefined;
}

/**
 * cel-go's ValidateDurationLiterals, ValidateTimestampLiterals and ValidateRegexLiterals (Kubernetes enables them
 * since 1.29): literal arguments that can never convert are compile errors.
 */
function validateLiterals(ast: CheckedAst): Issue[] {
  const issues: Issue[] = [];
  const report = (e: Expr, fn: string): void => {
    issues.push({ offset: ast.source.offsetOf(e.id), message: `invalid ${fn} argument` });
  };
  walkExpr(ast.expr, (e) => {
    if (e.kind !== 'call') return;
    const ref = ast.refs.get(e.id);
    const fn = ref?.kind === 'fn' ? ref.name : e.fn;
    const arg = e.args[0];
    if (fn === 'timestamp' && e.args.length === 1 && arg.kind === 'const' && typeof arg.value === 'bigint') {
      const secs = arg.value;
      if (secs < MIN_TIMESTAMP_SECONDS || secs > MAX_TIMESTAMP_SECONDS) report(arg, 'timestamp');
      return;
    }
    const lit = constString(arg);
    if (lit === undefined) return;
    if (fn === 'duration' && e.args.length === 1 && parseGoDuration(lit) === undefined) report(arg, 'duration');
    else if (fn === 'timestamp' && e.args.length === 1 && parseRFC3339(lit) === undefined) report(arg, 'timestamp');
    else if (fn === 'matches' && typeof compileRE2(e.target ? lit : (constString(e.args[1]) ?? '')) === 'string') {
      if (e.target || constString(e.args[1]) !== undefined) report(e.target ? arg : e.args[1], 'matches');
    }
  });
  return issues;
}
