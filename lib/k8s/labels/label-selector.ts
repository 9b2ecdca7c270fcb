import { LabelSelectorError } from './label-selector-error.js';
import { goCompare } from '../../go/strings.js';
import { goQuote } from '../../go/go-values.js';
import { parseLabelRequirements } from './label-parser.js';
import { requirementMatches, requirementProblem, type LabelOperator, type LabelRequirement } from './label-requirement.js';

export type { LabelOperator, LabelRequirement } from './label-requirement.js';

/** A label selector: the AND of its requirements (sorted by key), or the selector that matches nothing. */
export class LabelSelector {
  /** `nothing` is labels.Nothing(): what a null metav1.LabelSelector selects. */
  constructor(
    readonly requirements: readonly LabelRequirement[],
    private readonly nothing = false,
  ) {}

  matches(labels: Record<string, string> | undefined): boolean {
    if (this.nothing) return false;
    const set = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, set));
  }

  /** True when the selector does not restrict anything. */
  isEmpty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }
}

function sortedByKey(requirements: LabelRequirement[]): LabelRequirement[] {
  return requirements.sort((a, b) => goCompare(a.key, b.key));
}

/** labels.Parse: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma-separated. */
export function parseLabelSelector(text: string): LabelSelector {
  return new LabelSelector(sortedByKey(parseLabelRequirements(text)));
}

/** metav1.LabelSelector. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

const objectOperators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: null selects nothing, an empty selector everything. Invalid keys, values or
 * operators throw a 400 with kube's text.
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (!sel) return new LabelSelector([], true);
  const requirements: LabelRequirement[] = [];
  const add = (r: LabelRequirement): void => {
    const problem = requirementProblem(r);
    if (problem !== undefined) throw new LabelSelectorError(problem);
    requirements.push(r);
  };
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) add({ key, operator: '=', values: [value] });
  for (const expr of sel.matchExpressions ?? []) {
    if (!Object.hasOwn(objectOperators, expr.operator)) {
      throw new LabelSelectorError(`${goQuote(expr.operator)} is not a valid pod selector operator`);
    }
    add({ key: expr.key, operator: objectOperators[expr.operator], values: [...(expr.values ?? [])] });
  }
  return new LabelSelector(sortedByKey(requirements));
}
