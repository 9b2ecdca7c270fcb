import type { AuthorizationAttributes, SelectorRequirement } from '../../core/contracts/authorizer.js';
import { fieldSelectorRequirements, labelSelectorRequirements } from '../../lib/k8s/authorization-selectors.js';
import { requirementProblem, type LabelOperator } from '../../lib/k8s/labels/label-requirement.js';

/** A review's fieldSelector or labelSelector, as decoded (validation has refused one with both or neither). */
interface SelectorAttributes {
  rawSelector?: string;
  requirements?: ({ key?: string; operator?: string; values?: string[] | null } | null)[] | null;
}

/**
 * A SubjectAccessReview's selectors as its authorizers get them (kube's ResourceAttributesFrom with
 * AuthorizeWithSelectors): a rawSelector parsed as a request's would be, or the requirements that kube can turn into
 * a selector — a field requirement In or NotIn with exactly one value; a label requirement with a valid key and
 * values for its operator. The others are left out (the check is then only broader), as is a selector that does not parse.
 */
export function reviewSelectors(a: { fieldSelector?: unknown; labelSelector?: unknown }): Pick<AuthorizationAttributes, 'fieldSelector' | 'labelSelector'> {
  const field = a.fieldSelector as SelectorAttributes | null | undefined;
  const label = a.labelSelector as SelectorAttributes | null | undefined;
  const fieldSelector = field?.requirements?.length ? given(field.requirements, fieldRequirement) : fieldSelectorRequirements(field?.rawSelector);
  const labelSelector = label?.requirements?.length ? given(label.requirements, labelRequirement) : labelSelectorRequirements(label?.rawSelector);
  return { ...(fieldSelector ? { fieldSelector } : {}), ...(labelSelector ? { labelSelector } : {}) };
}

type Given = NonNullable<NonNullable<SelectorAttributes['requirements']>[number]>;

function given(requirements: NonNullable<SelectorAttributes['requirements']>, accept: (r: Given) => SelectorRequirement | undefined): SelectorRequirement[] | undefined {
  const out = requirements.flatMap((r) => {
    const accepted = r ? accept(r) : undefined;
    return accepted ? [accepted] : [];
  });
  return out.length ? out : undefined;
}

function fieldRequirement(r: Given): SelectorRequirement | undefined {
  if ((r.operator !== 'In' && r.operator !== 'NotIn') || r.values?.length !== 1) return undefined;
  return { key: r.key ?? '', operator: r.operator, values: [r.values[0]!] };
}

const labelOperators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function labelRequirement(r: Given): SelectorRequirement | undefined {
  const operator = r.operator && Object.hasOwn(labelOperators, r.operator) ? labelOperators[r.operator]! : undefined;
  const values = r.values ?? [];
  if (!operator || requirementProblem({ key: r.key ?? '', operator, values }) !== undefined) return undefined;
  return { key: r.key ?? '', operator: r.operator as SelectorRequirement['operator'], ...(values.length ? { values: [...values] } : {}) };
}
