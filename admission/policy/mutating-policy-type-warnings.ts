/**
 * The type-checking warnings of a MutatingAdmissionPolicy, sent when it is created or updated (kube has no status
 * for them; kapi uses the strategy's warnings): each mutation is type-checked against the schema of every kind the
 * policy's matchConstraints name (resolved as for validating policies); a mutation that does not type-check against
 * some kind gets one warning, worded as a validating policy's expressionWarnings (field, then each kind and the
 * compiler's text): `spec.mutations[0].applyConfiguration.expression: example.com/v1, Kind=Widget: ERROR:
 * <input>:1:33: undefined field 'replica'`. A Warning header holds no line breaks: cel-go's source snippets are left
 * out, and several errors or kinds are joined by "; ".
 */
import type { MutatingAdmissionPolicy } from '../../builtin/admissionregistration/mutating-admission-policy-types.js';
import type { ResourceRegistry } from '../../core/contracts/resource-registry.js';
import { typeCheckMutations } from './mutation/mutation-type-check.js';
import { gvkString, kindsToCheck } from './type-checker.js';

/** cel-go's error text on one line: the source snippet lines (` | …`) left out, the errors joined by "; ". */
const oneLine = (text: string): string =>
  text
    .split('\n')
    .filter((line) => line && !line.startsWith(' | '))
    .join('; ');

export function mutatingPolicyTypeWarnings(policy: MutatingAdmissionPolicy, registry: ResourceRegistry): string[] {
  const spec = policy.spec ?? {};
  const mutations = spec.mutations ?? [];
  const kinds = kindsToCheck(spec.matchConstraints, registry);
  if (!kinds.length || !mutations.length) return [];
  const ctx = { hasParams: !!spec.paramKind, variables: spec.variables ?? [] };
  const perKind = kinds.map(({ gvk, schema }) => ({ gvk, problems: typeCheckMutations(mutations, schema, ctx) }));
  return mutations.flatMap((m, i) => {
    const texts = perKind.flatMap(({ gvk, problems }) => (problems[i] ? [`${gvkString(gvk)}: ${oneLine(problems[i])}`] : []));
    const body = m.patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration';
    return texts.length ? [`spec.mutations[${i}].${body}.expression: ${texts.join('; ')}`] : [];
  });
}
