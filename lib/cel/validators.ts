/**
 * cel-go's ValidateHomogeneousAggregateLiterals (cel.HomogeneousAggregateLiterals, which Kubernetes sets): after
 * type-checking, every list literal must have one element type and every map literal one key and one value type,
 * except literals inside calls of exempt functions (the strings library exempts `format`, whose argument list mixes
 * types by design).
 */
import type { Expr } from './ast.js';
import type { CheckedAst } from './checker.js';
import { formatType, type Type } from './types.js';

export interface LiteralIssue {
  offset: number;
  message: string;
}

/** cel-go's Type.IsEquivalentType: same kind, same names for objects/opaques, equivalent parameters. */
function equivalent(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'prim':
      return a.name === (b as typeof a).name;
    case 'list':
      return equivalent(a.elem, (b as typeof a).elem);
    case 'map':
      return equivalent(a.key, (b as typeof a).key) && equivalent(a.value, (b as typeof a).value);
    case 'type': {
      const bp = (b as typeof a).param;
      if (!a.param || !bp) return !a.param && !bp;
      return equivalent(a.param, bp);
    }
    case 'opaque': {
      const o = b as typeof a;
      return a.name === o.name && a.params.length === o.params.length && a.params.every((p, i) => equivalent(p, o.params[i]));
    }
    case 'object':
      return a.name === (b as typeof a).name;
    default:
      return true;
  }
}

function optionalParam(t: Type): Type {
  return t.kind === 'opaque' && t.name === 'optional_type' ? t.params[0] : t;
}

export function validateHomogeneousLiterals(ast: CheckedAst, exemptFunctions: ReadonlySet<string>): LiteralIssue[] {
  const issues: LiteralIssue[] = [];
  const typeOf = (e: Expr): Type => ast.types.get(e.id) ?? { kind: 'dyn' };
  const mismatch = (e: Expr, expected: Type, actual: Type): void => {
    issues.push({ offset: ast.source.offsetOf(e.id), message: `expected type '${formatType(expected)}' but found '${formatType(actual)}'` });
  };
  const visit = (e: Expr, exempt: boolean): void => {
    switch (e.kind) {
      case 'list': {
        if (!exempt) {
          const optional = new Set(e.optionalIndices);
          let elem: Type | undefined;
          for (let i = 0; i < e.elements.length; i++) {
            let t = typeOf(e.elements[i]);
            if (optional.has(i)) t = optionalParam(t);
            if (!elem) elem = t;
            else if (!equivalent(elem, t)) {
              mismatch(e.elements[i], elem, t);
              break;
            }
          }
        }
        for (const x of e.elements) visit(x, exempt);
        return;
      }
      case 'map': {
        if (!exempt) {
          let key: Type | undefined;
          let val: Type | undefined;
          for (const en of e.entries) {
            const kt = typeOf(en.key);
            let vt = typeOf(en.value);
            if (en.optional) vt = optionalParam(vt);
            if (!key || !val) {
              key = kt;
              val = vt;
              continue;
            }
            if (!equivalent(key, kt)) mismatch(en.key, key, kt);
            if (!equivalent(val, vt)) mismatch(en.value, val, vt);
          }
        }
        for (const en of e.entries) {
          visit(en.key, exempt);
          visit(en.value, exempt);
        }
        return;
      }
      case 'call': {
        const inner = exempt || exemptFunctions.has(e.fn);
        if (e.target) visit(e.target, inner);
        for (const a of e.args) visit(a, inner);
        return;
      }
      case 'select':
        visit(e.operand, exempt);
        return;
      case 'struct':
        for (const f of e.fields) visit(f.value, exempt);
        return;
      case 'comprehension':
        for (const x of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) visit(x, exempt);
        return;
      default:
        return;
    }
  };
  visit(ast.expr, false);
  return issues;
}
