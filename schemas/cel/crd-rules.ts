/**
 * CRD validation rules (`x-kubernetes-validations`) as kube-apiserver v1.32 compiles and evaluates them.
 *
 * `compileCrdRules` compiles every rule (and messageExpression) of a CRD version's schema once, type-checked against
 * the schema's CEL declaration, and returns the CRD-admission causes with kube's paths and texts: the rules' own
 * field checks, compile errors (`compilation failed: ERROR: <input>:1:6: ...`), the per-expression and per-CRD
 * estimated cost limits, and transition rules (`oldSelf`) where old values cannot be correlated. The returned
 * program evaluates the rules of a write: transition rules only when an old value exists (or with
 * `optionalOldSelf`), each call limited to 1,000,000 cost units and the whole object to 10,000,000, with kube's
 * causes and messages, and kube 1.32's validation ratcheting (an unchanged value's failures become warnings).
 */
import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { goQuote, kubeBadValue } from '../../lib/go/go-values.js';
import type { SchemaCause } from '../validation-errors.js';
import type { CheckedAst } from '../../lib/cel/checker.js';
import { estimateCost } from '../../lib/cel/cost.js';
import { FieldPath, pathString, validFieldPath } from './field-path.js';
import type { Env, Program } from '../../lib/cel/env.js';
import type { Activation } from '../../lib/cel/interpreter.js';
import { regexProgramError } from '../../lib/cel/k8s-regex.js';
import { kubernetesEnv } from '../../lib/cel/libraries.js';
import { celTypeOf, declAtPath, schemaDeclType, type DeclType } from './schema-decl.js';
import { toCel } from './schema-values.js';
import { T } from '../../lib/cel/types.js';
import { CelError, Optional, type Value } from '../../lib/cel/values.js';
import { walkExpr } from '../../lib/cel/ast.js';

export type StatusCause = SchemaCause;

type ValidationRule = NonNullable<JSONSchemaProps['x-kubernetes-validations']>[number];

/** Cost limit of one expression evaluation (celconfig.PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** The evaluation options of every rule and messageExpression. */
const PER_CALL_EVAL = { costLimit: PER_CALL_LIMIT };
/** Cost budget of all rules of one object (celconfig.RuntimeCELCostBudget). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Estimated cost limit of one expression (StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Estimated cost limit of all expressions of a CRD (StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes */
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;
const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

// ---- field.Error rendering ----

function invalidCause(field: string, value: string, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${value}: ${detail}`, field };
}

function forbiddenCause(field: string, detail: string): StatusCause {
  return { reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field };
}

function requiredCause(field: string, detail: string): StatusCause {
  return { reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field };
}

/** Go's %#v of an apiextensions.ValidationRule (how field.Invalid prints the rule as the bad value). */
function goRule(r: ValidationRule): string {
  const ptr = (t: string, set: boolean): string => (set ? `(*${t})(0xc000000000)` : `(*${t})(nil)`);
  return (
    `apiextensions.ValidationRule{Rule:${goQuote(r.rule ?? '')}, Message:${goQuote(r.message ?? '')}, ` +
    `MessageExpression:${goQuote(r.messageExpression ?? '')}, Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason !== undefined)}, ` +
    `FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf !== undefined)}}`
  );
}

/** apiextensions' getCostErrorMessage. */
function costErrorMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

function ruleErrorString(r: ValidationRule): string {
  return r.message && r.message.length > 0 ? r.message.trim() : (r.rule ?? '').trim();
}

function ruleMessageOrDefault(r: ValidationRule): string {
  return r.message && r.message.length > 0 ? r.message.trim() : `failed rule: ${ruleErrorString(r)}`;
}

// ---- compilation ----

interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  usesOldSelf: boolean;
  optionalOldSelf: boolean;
  messageProgram?: Program;
  normalizedFieldPath?: string;
}

/** The rules of one schema node and the nodes below it that have rules (kube's cel.Validator). */
interface RuleNode {
  schema: JSONSchemaProps;
  decl?: DeclType;
  typeName: string;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  items?: RuleNode;
  additionalProperties?: RuleNode;
  /** Validators of the node's allOf entries (same value, same type). */
  allOf: RuleNode[];
}

let selfTypeCounter = 0;

function usesVariable(ast: CheckedAst, name: string): boolean {
  let found = false;
  walkExpr(ast.expr, (e) => {
    const r = ast.refs.get(e.id);
    if (r?.kind === 'var' && r.name === name) found = true;
  });
  return found;
}

/** apiextensions' CELSchemaContext cardinality: the product of maxItems/maxProperties above, or unbounded. */
function childCardinality(parent: JSONSchemaProps, card: number | undefined): number | undefined {
  if (card === undefined) return undefined;
  let factor: number | undefined;
  if (parent.type === 'object') factor = parent.additionalProperties !== undefined && parent.additionalProperties !== false ? parent.maxProperties : 1;
  else if (parent.type === 'array') factor = parent.maxItems;
  else factor = 1;
  if (factor === undefined) return undefined;
  return Math.min(card * Math.max(0, factor), 18446744073709551615);
}

interface CompileState {
  schemaErrors: StatusCause[];
  celErrors: StatusCause[];
  total: number;
  mostExpensive: { path: string; cost: number }[];
}

function observe(state: CompileState, path: string, cost: number): void {
  state.total = Math.min(state.total + cost, 18446744073709551615);
  if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
  state.mostExpensive.push({ path, cost });
  state.mostExpensive.sort((a, b) => b.cost - a.cost);
  if (state.mostExpensive.length > 4) state.mostExpensive.length = 4;
}

function multiplyWithOverflowGuard(base: number, cardinality: number): number {
  if (base === 0) return 0;
  return Math.min(base * cardinality, 18446744073709551615);
}

function envFor(type: ReturnType<typeof celTypeOf>, optionalOldSelf: boolean): Env {
  return kubernetesEnv()
    .extend()
    .declare('self', type)
    .declare('oldSelf', optionalOldSelf ? T.optional(type) : type);
}

/**
 * Walks one schema node: checks and compiles its rules (after its children, as kube does) and returns the runtime
 * node when it or anything below has rules. `overlay` supplies the rules and the structure walked: the node's own
 * schema, or one of its `allOf` entries (whose rules apply to the same value, typed by the structural schema).
 */
function compileNode(
  schema: JSONSchemaProps,
  overlay: JSONSchemaProps,
  path: FieldPath,
  isResourceRoot: boolean,
  cardinality: number | undefined,
  uncorrelatable: FieldPath | undefined,
  state: CompileState,
): RuleNode | undefined {
  const schemaErrorsBefore = state.schemaErrors.length;
  const node: RuleNode = { schema, typeName: '', rules: [], properties: new Map(), allOf: [] };
  let hasRules = false;

  const ap = schema.additionalProperties;
  const oap = overlay.additionalProperties;
  if (ap && typeof ap === 'object' && oap && typeof oap === 'object') {
    const child = compileNode(ap, oap, FieldPath.child(path, 'additionalProperties'), !!ap['x-kubernetes-embedded-resource'], childCardinality(schema, cardinality), uncorrelatable, state);
    if (child) {
      node.additionalProperties = child;
      hasRules = true;
    }
  }
  for (const [name, oprop] of Object.entries(overlay.properties ?? {})) {
    const prop = schema.properties?.[name];
    if (!prop) continue;
    const child = compileNode(
      prop,
      oprop,
      FieldPath.key(FieldPath.child(path, 'properties'), name),
      !!prop['x-kubernetes-embedded-resource'],
      childCardinality(schema, cardinality),
      uncorrelatable,
      state,
    );
    if (child) {
      node.properties.set(name, child);
      hasRules = true;
    }
  }
  if (schema.items && overlay.items) {
    const itemsUncorrelatable = uncorrelatable ?? (schema['x-kubernetes-list-type'] !== 'map' ? path : undefined);
    const child = compileNode(
      schema.items,
      overlay.items,
      FieldPath.child(path, 'items'),
      !!schema.items['x-kubernetes-embedded-resource'],
      childCardinality(schema, cardinality),
      itemsUncorrelatable,
      state,
    );
    if (child) {
      node.items = child;
      hasRules = true;
    }
  }
  (overlay.allOf ?? []).forEach((sub, i) => {
    const child = compileNode(schema, sub, FieldPath.index(FieldPath.child(path, 'allOf'), i), isResourceRoot, cardinality, uncorrelatable, state);
    if (child) {
      node.allOf.push(child);
      hasRules = true;
    }
  });

  const rules = overlay['x-kubernetes-validations'] ?? [];
  if (rules.length) {
    hasRules = true;
    const rulePath = (i: number, f: string): string => FieldPath.child(FieldPath.index(FieldPath.child(path, 'x-kubernetes-validations'), i), f).toString();
    rules.forEach((r, i) => {
      const rule = r.rule ?? '';
      const msg = r.message ?? '';
      if (rule.trim() === '') state.schemaErrors.push(requiredCause(rulePath(i, 'rule'), 'rule is not specified'));
      else if (msg.length > 0 && msg.trim() === '') state.schemaErrors.push(invalidCause(rulePath(i, 'message'), goQuote(msg), 'message must be non-empty if specified'));
      else if (hasNewlines(msg.trim())) state.schemaErrors.push(invalidCause(rulePath(i, 'message'), goQuote(msg), 'message must not contain line breaks'));
      else if (hasNewlines(rule.trim()) && msg.trim() === '') state.schemaErrors.push(requiredCause(rulePath(i, 'message'), 'message must be specified if rule contains line breaks'));
      if (r.messageExpression !== undefined && r.messageExpression.length > 0 && r.messageExpression.trim() === '') {
        state.schemaErrors.push(requiredCause(rulePath(i, 'messageExpression'), 'messageExpression must be non-empty if specified'));
      }
      if (r.reason !== undefined && !SUPPORTED_REASONS.includes(r.reason)) {
        state.schemaErrors.push({
          reason: 'FieldValueNotSupported',
          message: `Unsupported value: ${goQuote(r.reason)}: supported values: ${SUPPORTED_REASONS.map(goQuote).join(', ')}`,
          field: rulePath(i, 'reason'),
        });
      }
      const fp = r.fieldPath ?? '';
      if (fp.length > 0 && fp.trim() === '') state.schemaErrors.push(invalidCause(rulePath(i, 'fieldPath'), goQuote(fp), 'fieldPath must be non-empty if specified'));
      if (hasNewlines(fp)) state.schemaErrors.push(invalidCause(rulePath(i, 'fieldPath'), goQuote(fp), 'fieldPath must not contain line breaks'));
      if (fp.length > 0 && validFieldPath(fp, schema).error) state.schemaErrors.push(invalidCause(rulePath(i, 'fieldPath'), goQuote(fp), 'fieldPath must be a valid path'));
    });

    // CEL compilation only when this node and everything below passed the schema checks
    if (state.schemaErrors.length === schemaErrorsBefore) {
      const decl = schemaDeclType(schema, isResourceRoot);
      if (!decl) {
        state.celErrors.push({
          reason: 'InternalError',
          message: 'Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations',
          field: FieldPath.child(path, 'x-kubernetes-validations').toString(),
        });
      } else {
        node.decl = decl;
        node.typeName = `selfType${++selfTypeCounter}`;
        const selfType = celTypeOf(decl, node.typeName);
        const sizes = (p: string[]): { min: number; max: number } | undefined => {
          const d = declAtPath(decl, p.slice(1));
          return d ? { min: 0, max: d.maxElements } : undefined;
        };
        const ruleCardinality = cardinality ?? Math.floor(MAX_REQUEST_SIZE_BYTES / (decl.minSerializedSize + 1));
        rules.forEach((r, i) => {
          const compiled = compileRule(r, i, schema, selfType, sizes, ruleCardinality, rulePath, uncorrelatable, state);
          node.rules.push(compiled);
        });
      }
    }
  }
  return hasRules ? node : undefined;
}

function compileRule(
  r: ValidationRule,
  i: number,
  schema: JSONSchemaProps,
  selfType: ReturnType<typeof celTypeOf>,
  sizes: (p: string[]) => { min: number; max: number } | undefined,
  cardinality: number,
  rulePath: (i: number, f: string) => string,
  uncorrelatable: FieldPath | undefined,
  state: CompileState,
): CompiledRule {
  const optionalOldSelf = r.optionalOldSelf === true;
  const compiled: CompiledRule = { rule: r, usesOldSelf: false, optionalOldSelf };
  const env = envFor(selfType, optionalOldSelf);
  let error: string | undefined;
  let maxCost = 0;
  if ((r.rule ?? '').trim() !== '') {
    const c = env.compile(r.rule);
    if (!c.ast) error = `compilation failed: ${c.errorText}`;
    else if (!(c.ast.type.kind === 'prim' && c.ast.type.name === 'bool')) error = 'cel expression must evaluate to a bool';
    else {
      compiled.usesOldSelf = usesVariable(c.ast, 'oldSelf');
      // as in kube, the cost is only estimated for a rule whose program could be built
      const programError = regexProgramError(c.ast);
      if (programError) error = `program instantiation failed: ${programError}`;
      else {
        compiled.program = env.program(c.ast);
        maxCost = estimateCost(c.ast, env.functions, sizes).max;
      }
    }
  }
  const expressionCost = multiplyWithOverflowGuard(maxCost, cardinality);
  if (expressionCost > STATIC_ESTIMATED_COST_LIMIT) state.celErrors.push(forbiddenCause(rulePath(i, 'rule'), costErrorMessage('estimated rule cost', expressionCost, STATIC_ESTIMATED_COST_LIMIT)));
  observe(state, rulePath(i, 'rule'), expressionCost);
  if (error) state.celErrors.push(invalidCause(rulePath(i, 'rule'), goRule(r), error));

  if (compiled.program && r.messageExpression) {
    const m = env.compile(r.messageExpression);
    let mErr: string | undefined;
    if (!m.ast) mErr = `messageExpression compilation failed: ${m.errorText}`;
    else if (!(m.ast.type.kind === 'prim' && m.ast.type.name === 'string')) mErr = 'messageExpression must evaluate to a string';
    if (mErr) state.celErrors.push(invalidCause(rulePath(i, 'messageExpression'), goRule(r), mErr));
    else {
      compiled.messageProgram = env.program(m.ast!);
      const mCost = estimateCost(m.ast!, env.functions, sizes).max;
      if (mCost > STATIC_ESTIMATED_COST_LIMIT) {
        state.celErrors.push(forbiddenCause(rulePath(i, 'messageExpression'), costErrorMessage('estimated messageExpression cost', mCost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      observe(state, rulePath(i, 'messageExpression'), mCost);
    }
  }
  if (compiled.program) {
    if (compiled.usesOldSelf) {
      if (uncorrelatable) {
        state.celErrors.push(
          invalidCause(rulePath(i, 'rule'), goQuote(r.rule), `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable.toString()}`),
        );
      }
    } else if (r.optionalOldSelf !== undefined) {
      state.celErrors.push(invalidCause(rulePath(i, 'optionalOldSelf'), String(r.optionalOldSelf), 'may not be set if oldSelf is not used in rule'));
    }
  }
  if (r.fieldPath) {
    const fp = validFieldPath(r.fieldPath, schema);
    if (fp.path) compiled.normalizedFieldPath = fp.path.toString();
  }
  return compiled;
}

// ---- evaluation ----

/** kube's CorrelatedObject: the old value at the same place, for ratcheting unchanged values. */
class Correlation {
  private equal: boolean | undefined;
  private readonly children = new Map<string | number, Correlation | undefined>();
  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: JSONSchemaProps,
  ) {}

  key(field: string): Correlation | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let res: Correlation | undefined;
    const v = this.value;
    const o = this.old;
    if (isObject(v) && isObject(o) && hasOwn(v, field) && hasOwn(o, field)) {
      const ap = this.schema.additionalProperties;
      const s = this.schema.properties?.[field] ?? (ap && typeof ap === 'object' ? ap : undefined);
      if (s) res = new Correlation(v[field], o[field], s);
    }
    this.children.set(field, res);
    return res;
  }

  index(i: number): Correlation | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let res: Correlation | undefined;
    const v = this.value;
    const o = this.old;
    if (Array.isArray(v) && Array.isArray(o) && i < v.length && this.schema.items) {
      const lt = this.schema['x-kubernetes-list-type'];
      let oldItem: unknown;
      if (lt === 'map') oldItem = findMapListItem(o, v[i], this.schema['x-kubernetes-list-map-keys'] ?? []);
      else if (lt === undefined) oldItem = o[i];
      if (oldItem !== undefined && oldItem !== null) res = new Correlation(v[i], oldItem, this.schema.items);
    }
    this.children.set(i, res);
    return res;
  }

  deepEqual(): boolean {
    if (this.equal === undefined) this.equal = this.computeEqual();
    return this.equal;
  }

  private computeEqual(): boolean {
    const v = this.value;
    const o = this.old;
    if (v === null || v === undefined || o === null || o === undefined) return (v ?? null) === (o ?? null);
    if (Array.isArray(v) && Array.isArray(o) && this.schema['x-kubernetes-list-type'] === 'map') {
      if (v.length !== o.length) return false;
      return v.every((_, i) => this.index(i)?.deepEqual() ?? false);
    }
    return isDeepStrictEqual(v, o);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasOwn(o: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

function findMapListItem(list: unknown[], item: unknown, keys: string[]): unknown {
  if (!isObject(item)) return undefined;
  const k = JSON.stringify(keys.map((x) => item[x] ?? null));
  return list.find((o) => isObject(o) && JSON.stringify(keys.map((x) => o[x] ?? null)) === k);
}

interface Ratchet {
  current?: Correlation;
  parent?: Correlation;
}

function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (!r.current) return r;
  if (!r.parent && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: r.current.key(field), parent: r.current };
}

function ratchetIndex(r: Ratchet, i: number): Ratchet {
  if (!r.current) return r;
  return { current: r.current.index(i), parent: r.current };
}

function shouldRatchet(r: Ratchet): boolean {
  if (r.current) return r.current.deepEqual();
  return r.parent ? r.parent.deepEqual() : false;
}

interface EvalContext {
  errs: StatusCause[];
  warnings?: string[];
  budget: number;
}

function fieldErrorForReason(field: string, type: string, detail: string, reason: string | undefined): StatusCause {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbiddenCause(field, detail);
    case 'FieldValueRequired':
      return requiredCause(field, detail);
    case 'FieldValueDuplicate':
      return { reason: 'FieldValueDuplicate', message: `Duplicate value: ${goQuote(type)}`, field };
    default:
      return invalidCause(field, goQuote(type), detail);
  }
}

function errorText(c: StatusCause): string {
  return `${c.field}: ${c.message}`;
}

/**
 * The variables of one node's rules: `self`, and `oldSelf` as the rule being run sees it (set before each run), the
 * old value converted only when a rule reads it.
 */
class RuleActivation implements Activation {
  oldSelf: Value | undefined;
  private oldValue: Value | undefined;

  constructor(
    readonly self: Value,
    private readonly old: unknown,
    private readonly node: RuleNode,
  ) {}

  resolve(name: string): Value | undefined {
    return name === 'self' ? this.self : name === 'oldSelf' ? this.oldSelf : undefined;
  }

  oldSelfValue(): Value {
    return (this.oldValue ??= toCel(this.old, this.node.decl!, this.node.typeName) as Value);
  }
}

/** Evaluates one node's rules; false when the budget is exhausted (no further rules run). */
function validateExpressions(node: RuleNode, path: FieldPath | undefined, obj: unknown, oldObj: unknown, ratchet: Ratchet, ctx: EvalContext): boolean {
  if (obj === null || obj === undefined || !node.rules.length || !node.decl) return true;
  const type = node.schema.type ?? '';
  if (ctx.budget <= 0) {
    ctx.errs.push(invalidCause(pathString(path), goQuote(type), 'validation failed due to running out of cost budget, no further validation rules will be run'));
    ctx.budget = -1;
    return false;
  }
  const old = oldObj === null ? undefined : oldObj;
  const act = new RuleActivation(toCel(obj, node.decl, node.typeName) as Value, old, node);
  for (const r of node.rules) {
    if (!r.program) continue;
    if (r.usesOldSelf && old === undefined && !r.optionalOldSelf) continue;
    if (r.optionalOldSelf) act.oldSelf = old === undefined ? Optional.NONE : Optional.of(act.oldSelfValue());
    else act.oldSelf = old === undefined ? undefined : act.oldSelfValue();
    const res = r.program.eval(act, PER_CALL_EVAL);
    if (res.cost > ctx.budget) {
      ctx.errs.push(invalidCause(pathString(path), goQuote(type), 'validation failed due to running out of cost budget, no further validation rules will be run'));
      ctx.budget = -1;
      return false;
    }
    ctx.budget -= res.cost;
    if (res.costLimitExceeded) {
      ctx.errs.push(
        invalidCause(
          pathString(path),
          goQuote(type),
          `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(r.rule)}`,
        ),
      );
      ctx.budget = -1;
      return false;
    }
    const v = res.value;
    if (v instanceof CelError) {
      if (v.message.startsWith('no such overload')) {
        ctx.errs.push(
          invalidCause(pathString(path), goQuote(type), `'${v.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r.rule)}`),
        );
      } else ctx.errs.push(invalidCause(pathString(path), goQuote(type), `${v.message} evaluating rule: ${ruleErrorString(r.rule)}`));
      continue;
    }
    if (v === true) continue;

    const current = r.normalizedFieldPath ? (path ? `${path.toString()}.${r.normalizedFieldPath}` : r.normalizedFieldPath) : pathString(path);
    const addErr = (c: StatusCause): void => {
      if (!r.usesOldSelf && shouldRatchet(ratchet)) ctx.warnings?.push(errorText(c));
      else ctx.errs.push(c);
    };
    let detail: string | undefined;
    if (r.messageProgram && r.rule.messageExpression) {
      // kube evaluates messageExpression with the plain activation, even for optionalOldSelf rules
      act.oldSelf = old === undefined ? undefined : act.oldSelfValue();
      const m = r.messageProgram.eval(act, PER_CALL_EVAL);
      if (m.cost > ctx.budget) {
        addErr(invalidCause(current, goQuote(type), 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
        ctx.budget = -1;
        return false;
      }
      if (m.costLimitExceeded) {
        addErr(invalidCause(current, goQuote(type), `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(r.rule.messageExpression)}`));
        ctx.budget = -1;
        return false;
      }
      ctx.budget -= m.cost;
      const mv = m.value;
      if (typeof mv === 'string') {
        const t = mv.trim();
        if (t.length > 0 && Buffer.byteLength(t) <= MAX_MESSAGE_EXPRESSION_BYTES && !t.includes('\n')) detail = t;
      }
    }
    addErr(fieldErrorForReason(current, type, detail ?? ruleMessageOrDefault(r.rule), r.rule.reason));
  }
  return true;
}

function validateNode(node: RuleNode, path: FieldPath | undefined, obj: unknown, oldObj: unknown, ratchet: Ratchet, ctx: EvalContext): boolean {
  if (obj === null || obj === undefined) return true;
  if (!validateExpressions(node, path, obj, oldObj, ratchet, ctx)) return false;
  for (const sub of node.allOf) if (!validateNode(sub, path, obj, oldObj, ratchet, ctx)) return false;
  if (Array.isArray(obj)) {
    if (!node.items) return true;
    const keys = node.schema['x-kubernetes-list-map-keys'] ?? [];
    const oldList = Array.isArray(oldObj) && node.schema['x-kubernetes-list-type'] === 'map' ? oldObj : undefined;
    for (let i = 0; i < obj.length; i++) {
      const oldItem = oldList ? findMapListItem(oldList, obj[i], keys) : undefined;
      if (!validateNode(node.items, FieldPath.index(path, i), obj[i], oldItem, ratchetIndex(ratchet, i), ctx)) return false;
    }
    return true;
  }
  if (isObject(obj)) {
    const oldMap = isObject(oldObj) ? oldObj : undefined;
    // for-in over a JSON object visits its own keys in Object.keys order, without allocating the entries
    if (node.additionalProperties) {
      for (const k in obj) {
        if (!hasOwn(obj, k)) continue;
        if (!validateNode(node.additionalProperties, FieldPath.key(path, k), obj[k], oldMap?.[k], ratchetKey(ratchet, k), ctx)) return false;
      }
    }
    if (node.properties.size) {
      for (const k in obj) {
        const sub = node.properties.get(k);
        if (!sub || !hasOwn(obj, k)) continue;
        if (!validateNode(sub, FieldPath.child(path, k), obj[k], oldMap?.[k], ratchetKey(ratchet, k), ctx)) return false;
      }
    }
  }
  return true;
}

export interface CrdRuleProgram {
  /**
   * The causes of kube's 422 for the x-kubernetes-validations rules of a write ([] when every rule holds).
   * `oldObj` is the stored object on update (undefined on create): transition rules run only then (or with
   * optionalOldSelf), and failures of rules on values the update left unchanged are ratcheted into
   * `opts.warnings` (kube's `Warning:` headers) instead of causes.
   */
  validate(obj: unknown, oldObj: unknown | undefined, opts?: { warnings?: string[] }): StatusCause[];
}

/**
 * Compiles every x-kubernetes-validations rule of a CRD version's openAPIV3Schema (at `fieldPathPrefix`) once.
 * `errors` are the CRD-admission causes (empty when the rules are acceptable); `program` is absent when there are
 * errors or no rules.
 */
export function compileCrdRules(
  schema: JSONSchemaProps,
  fieldPathPrefix = 'spec.versions[0].schema.openAPIV3Schema',
): { errors: StatusCause[]; program?: CrdRuleProgram } {
  const state: CompileState = { schemaErrors: [], celErrors: [], total: 0, mostExpensive: [] };
  const prefix = FieldPath.of(fieldPathPrefix);
  const root = compileNode(schema, schema, prefix, true, 1, undefined, state);
  const errors = [...state.schemaErrors, ...state.celErrors];
  if (state.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of state.mostExpensive) errors.push(forbiddenCause(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errors.push(forbiddenCause(fieldPathPrefix, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', state.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  if (errors.length || !root) return { errors };
  return {
    errors: [],
    program: {
      validate(obj, oldObj, opts = {}) {
        const ctx: EvalContext = { errs: [], budget: RUNTIME_CEL_COST_BUDGET, warnings: opts.warnings };
        const ratchet: Ratchet = oldObj !== undefined && oldObj !== null ? { current: new Correlation(obj, oldObj, schema) } : {};
        validateNode(root, undefined, obj, oldObj ?? undefined, ratchet, ctx);
        return ctx.errs;
      },
    },
  };
}

/**
 * kube-apiserver skips the CEL rules when schema validation found a blocking error (unsupported or required values,
 * too long or too many, wrong type) and reports this cause instead.
 */
export function celRulesSkippedCause(schemaCauses: readonly { reason?: string }[]): StatusCause | undefined {
  const blocking = ['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid'];
  if (!schemaCauses.some((c) => c.reason !== undefined && blocking.includes(c.reason))) return undefined;
  return invalidCause('<nil>', kubeBadValue(null), 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
}
