/**
 * A CEL environment: declared variables, functions (standard library plus extension libraries) and type names.
 * `compile` parses and type-checks an expression once; `program` plans it for repeated evaluation under a cost
 * limit. Compile errors read exactly like cel-go's `issues.String()`.
 */
import type { SourceInfo } from './ast.js';
import { check, type CheckedAst } from './checker.js';
import { FunctionRegistry } from './functions.js';
import { CostLimitExceeded, planExpr, type Activation, type Evaluation, type Plan } from './interpreter.js';
import { parse } from './parser.js';
import { registerStdlib } from './stdlib.js';
import type { StructType, StructTypeResolver } from './struct-types.js';
import { T, type Type } from './types.js';
import { validateHomogeneousLiterals } from './validators.js';
import type { Val, Value } from './values.js';

export interface Issue {
  offset: number;
  message: string;
}

export interface CompileResult {
  ast?: CheckedAst;
  issues: Issue[];
  /** cel-go's rendering of the issues (`ERROR: <input>:1:6: ...` with the source snippet). */
  errorText?: string;
}

export interface EnvOptions {
  /** List and map literals must have one element type (cel.HomogeneousAggregateLiterals; Kubernetes sets it). */
  homogeneousAggregateLiterals?: boolean;
  /** Backtick-quoted field names (cel-go's EnableIdentEscapeSyntax; off in Kubernetes 1.32). */
  enableIdentEscapeSyntax?: boolean;
}

/** A library adds functions, type names and variables to an environment. */
export type Library = (env: Env) => void;

/** A check run on every type-checked expression (cel-go's ASTValidators). */
export type AstValidator = (ast: CheckedAst) => Issue[];

const STANDARD_TYPE_IDENTS: [string, Type][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['bool', T.bool],
  ['string', T.string],
  ['bytes', T.bytes],
  ['list', T.list(T.dyn)],
  ['map', T.map(T.dyn, T.dyn)],
  ['null_type', T.null],
  ['type', T.type()],
  ['google.protobuf.Timestamp', T.timestamp],
  ['google.protobuf.Duration', T.duration],
  ['optional_type', T.optional(T.dyn)],
];

export class Env {
  readonly functions: FunctionRegistry;
  readonly variables = new Map<string, Type>();
  readonly typeIdents = new Map<string, Type>();
  readonly homogeneousAggregateLiterals: boolean;
  readonly enableIdentEscapeSyntax: boolean;
  readonly astValidators: AstValidator[] = [];
  /** Message types expressions may construct, asked in order. */
  readonly structResolvers: StructTypeResolver[] = [];
  /** Functions whose arguments may be mixed-type literals despite homogeneousAggregateLiterals. */
  readonly homogeneousExemptFunctions = new Set<string>();

  constructor(opts: EnvOptions = {}, base?: Env) {
    this.homogeneousAggregateLiterals = opts.homogeneousAggregateLiterals ?? base?.homogeneousAggregateLiterals ?? false;
    this.enableIdentEscapeSyntax = opts.enableIdentEscapeSyntax ?? base?.enableIdentEscapeSyntax ?? false;
    if (base) {
      this.functions = base.functions.clone();
      for (const [k, v] of base.variables) this.variables.set(k, v);
      for (const [k, v] of base.typeIdents) this.typeIdents.set(k, v);
      this.astValidators.push(...base.astValidators);
      this.structResolvers.push(...base.structResolvers);
      for (const f of base.homogeneousExemptFunctions) this.homogeneousExemptFunctions.add(f);
    } else {
      this.functions = new FunctionRegistry();
      registerStdlib(this.functions);
      for (const [k, v] of STANDARD_TYPE_IDENTS) this.typeIdents.set(k, v);
    }
  }

  /** A copy of this environment with more declarations. */
  extend(opts: EnvOptions = {}): Env {
    return new Env(opts, this);
  }

  use(...libs: Library[]): this {
    for (const l of libs) l(this);
    return this;
  }

  declare(name: string, type: Type): this {
    this.variables.set(name, type);
    return this;
  }

  /** Declares message types (`Foo{...}`). */
  declareStructs(resolver: StructTypeResolver): this {
    this.structResolvers.push(resolver);
    return this;
  }

  resolveStruct(name: string): StructType | undefined {
    for (const r of this.structResolvers) {
      const t = r(name);
      if (t) return t;
    }
    return undefined;
  }

  /** Parses and type-checks an expression. */
  compile(text: string): CompileResult {
    const parsed = parse(text, { enableIdentEscapeSyntax: this.enableIdentEscapeSyntax });
    if (!parsed.expr) return withText(parsed.source, parsed.issues);
    const checked = check(parsed.expr, parsed.source, {
      variables: this.variables,
      functions: this.functions,
      typeIdents: this.typeIdents,
      resolveStruct: (name) => this.resolveStruct(name),
    });
    if (!checked.ast) return withText(parsed.source, checked.issues);
    const issues = [
      ...(this.homogeneousAggregateLiterals ? validateHomogeneousLiterals(checked.ast, this.homogeneousExemptFunctions) : []),
      ...this.astValidators.flatMap((v) => v(checked.ast!)),
    ];
    if (issues.length) return withText(parsed.source, issues);
    return { ast: checked.ast, issues: [] };
  }

  /** Plans a checked expression for evaluation. */
  program(ast: CheckedAst): Program {
    return new Program(planExpr(ast.expr, this, ast));
  }

  /** Parses an expression and plans it without type-checking (dynamic dispatch only). */
  programUnchecked(text: string): { program?: Program; errorText?: string } {
    const parsed = parse(text, { enableIdentEscapeSyntax: this.enableIdentEscapeSyntax });
    if (!parsed.expr) return { errorText: formatIssues(parsed.source, parsed.issues) };
    return { program: new Program(planExpr(parsed.expr, this)) };
  }
}

function withText(source: SourceInfo, issues: Issue[]): CompileResult {
  return { issues, errorText: formatIssues(source, issues) };
}

export interface EvalResult {
  /** The result, a CEL error value, or undefined when the cost limit stopped the evaluation. */
  value?: Val;
  /** The runtime cost of the evaluation (as far as it got). */
  cost: number;
  /** True when the evaluation was aborted for exceeding the cost limit. */
  costLimitExceeded?: boolean;
}

export class Program {
  constructor(private readonly plan: Plan) {}

  /** Evaluates with the given variables; `costLimit` aborts the evaluation when exceeded (cel.CostLimit). */
  eval(vars: Record<string, Value> | Activation, opts: { costLimit?: number } = {}): EvalResult {
    const act: Activation =
      typeof (vars as Activation).resolve === 'function'
        ? (vars as Activation)
        : {
            resolve: (n) => (Object.prototype.hasOwnProperty.call(vars, n) ? (vars as Record<string, Value>)[n] : undefined),
          };
    const ev: Evaluation = { act, cost: 0, limit: opts.costLimit ?? Infinity };
    try {
      const value = this.plan.eval(ev);
      return { value, cost: ev.cost };
    } catch (e) {
      if (e instanceof CostLimitExceeded) return { cost: ev.cost, costLimitExceeded: true };
      throw e;
    }
  }
}

const DOT = '.';
const IND = '^';
const WIDE_DOT = '\uff0e';
const WIDE_IND = '\uff3e';

/** cel-go's Errors: only the first 100 issues are kept and shown, then a count of the others. */
const MAX_ERRORS_TO_REPORT = 100;
/** cel-go's Error.ToDisplayString shows the source line only up to this many bytes. */
const MAX_SNIPPET_LENGTH = 16384;

/** cel-go's Errors.ToDisplayString: one `ERROR: <input>:line:col: message` block per issue, with the snippet. */
export function formatIssues(source: SourceInfo, issues: Issue[]): string {
  const shown = [...issues]
    .sort((a, b) => a.offset - b.offset)
    .slice(0, MAX_ERRORS_TO_REPORT)
    .map((i) => {
      if (i.offset < 0) return `ERROR: ${source.description}:-1:0: ${i.message}`;
      const { line, column } = source.location(i.offset);
      let out = `ERROR: ${source.description}:${line}:${column + 1}: ${i.message}`;
      const snippet = source.snippet(line);
      if (snippet !== undefined && Buffer.byteLength(snippet) <= MAX_SNIPPET_LENGTH) {
        const text = snippet.replace(/\t/g, ' ');
        out += '\n | ' + text;
        let ind = '\n | ';
        const chars = [...text];
        for (let c = 0; c < column && c < chars.length; c++) ind += wide(chars[c]) ? WIDE_DOT : DOT;
        ind += column < chars.length && wide(chars[column]) ? WIDE_IND : IND;
        out += ind;
      }
      return out;
    });
  if (issues.length > MAX_ERRORS_TO_REPORT) shown.push(`${issues.length - MAX_ERRORS_TO_REPORT} more errors were truncated`);
  return shown.join('\n');
}

function wide(ch: string): boolean {
  return new TextEncoder().encode(ch).length > 1;
}
