import { parseFieldSelector } from './fields/field-selector.js';
import { parseLabelSelector } from './labels/label-selector.js';
import type { LabelOperator } from './labels/label-requirement.js';

/** One selector requirement as SubjectAccessReviews carry it (metav1's FieldSelectorRequirement and LabelSelectorRequirement). */
export interface ReviewSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/**
 * A field selector as kube hands it to authorizers (AuthorizeWithSelectors): `=` and `==` as In, `!=` as NotIn, one value
 * each. Undefined for none, or for a selector that does not parse: the request is then authorized as not narrowed.
 */
export function fieldSelectorRequirements(text: string | undefined): ReviewSelectorRequirement[] | undefined {
  if (!text) return undefined;
  let requirements;
  try {
    requirements = parseFieldSelector(text).requirements;
  } catch {
    return undefined;
  }
  const out = requirements.map((r): ReviewSelectorRequirement => ({ key: r.field, operator: r.operator === '=' ? 'In' : 'NotIn', values: [r.value] }));
  return out.length ? out : undefined;
}

const reviewOperators: Partial<Record<LabelOperator, ReviewSelectorRequirement['operator']>> = {
  '=': 'In',
  '==': 'In',
  in: 'In',
  '!=': 'NotIn',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

/**
 * A label selector as kube hands it to authorizers: equality and set requirements as In / NotIn, existence as Exists /
 * DoesNotExist; `>` and `<` are left out (requirements are AND'ed: the check is only broader). Undefined for none, or
 * for a selector that does not parse.
 */
export function labelSelectorRequirements(text: string | undefined): ReviewSelectorRequirement[] | undefined {
  if (!text) return undefined;
  let requirements;
  try {
    requirements = parseLabelSelector(text).requirements;
  } catch {
    return undefined;
  }
  const out: ReviewSelectorRequirement[] = [];
  for (const r of requirements) {
    const operator = reviewOperators[r.operator];
    if (operator) out.push({ key: r.key, operator, ...(r.values.length ? { values: [...r.values] } : {}) });
  }
  return out.length ? out : undefined;
}

/** A request's or a check's raw selectors as the requirements authorizers get (those that parse and narrow). */
export function selectorRequirements(fieldSelector: string | undefined, labelSelector: string | undefined): { fieldSelector?: ReviewSelectorRequirement[]; labelSelector?: ReviewSelectorRequirement[] } {
  const fields = fieldSelectorRequirements(fieldSelector);
  const labels = labelSelectorRequirements(labelSelector);
  return { ...(fields ? { fieldSelector: fields } : {}), ...(labels ? { labelSelector: labels } : {}) };
}
