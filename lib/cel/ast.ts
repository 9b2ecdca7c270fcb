/**
 * The CEL abstract syntax tree, shaped like cel-go's (`common/ast`): operators and index/optional operations are
 * calls with cel-go's function names (`_+_`, `_[_]`, `_?._`, `@in`, ...), macros are already expanded into
 * comprehensions, and every node carries an id whose source offset is kept in {@link SourceInfo}.
 */
import type { Value } from './values.js';

export type Expr = ConstExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr;

export interface ConstExpr {
  kind: 'const';
  id: number;
  value: Value;
}

export interface IdentExpr {
  kind: 'ident';
  id: number;
  name: string;
}

export interface SelectExpr {
  kind: 'select';
  id: number;
  operand: Expr;
  field: string;
  /** `has(a.b)`: a presence test rather than a field read. */
  testOnly: boolean;
}

export interface CallExpr {
  kind: 'call';
  id: number;
  fn: string;
  target?: Expr;
  args: Expr[];
}

export interface ListExpr {
  kind: 'list';
  id: number;
  elements: Expr[];
  /** Indices of `?expr` elements (optional syntax). */
  optionalIndices: number[];
}

export interface MapEntry {
  id: number;
  key: Expr;
  value: Expr;
  optional: boolean;
}

export interface MapExpr {
  kind: 'map';
  id: number;
  entries: MapEntry[];
}

export interface StructField {
  id: number;
  name: string;
  value: Expr;
  optional: boolean;
}

/** Message construction (`Foo{a: 1}`), checked and built by the message types the environment declares (struct-types.ts). */
export interface StructExpr {
  kind: 'struct';
  id: number;
  typeName: string;
  fields: StructField[];
}

export interface ComprehensionExpr {
  kind: 'comprehension';
  id: number;
  iterVar: string;
  /** The second variable of a two-variable comprehension (index/key and value). */
  iterVar2?: string;
  iterRange: Expr;
  accuVar: string;
  accuInit: Expr;
  loopCondition: Expr;
  loopStep: Expr;
  result: Expr;
}

/** The accumulator variable name of macro expansions (cel-go's parser.AccumulatorName). */
export const ACCUMULATOR = '__result__';

/** Maps expression ids to source offsets (UTF-16 indices) and offsets to line/column (in code points). */
export class SourceInfo {
  readonly positions = new Map<number, number>();
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string, readonly description = '<input>') {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  /** Line (1-based) and column (0-based, in code points) of a UTF-16 offset. */
  location(offset: number): { line: number; column: number } {
    let line = 0;
    for (let i = 1; i < this.lineStarts.length && this.lineStarts[i] <= offset; i++) line = i;
    const start = this.lineStarts[line];
    let column = 0;
    for (let i = start; i < offset && i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) i++;
      column++;
    }
    return { line: line + 1, column };
  }

  /** The text of a line (1-based), without its line break. */
  snippet(line: number): string | undefined {
    if (line < 1 || line > this.lineStarts.length) return undefined;
    const start = this.lineStarts[line - 1];
    const end = line < this.lineStarts.length ? this.lineStarts[line] - 1 : this.text.length;
    return this.text.slice(start, end).replace(/\r$/, '');
  }

  offsetOf(id: number): number {
    return this.positions.get(id) ?? 0;
  }
}

/** Calls `fn` on every sub-expression of `e` (pre-order), including `e`. */
export function walkExpr(e: Expr, fn: (e: Expr) => void): void {
  fn(e);
  switch (e.kind) {
    case 'select':
      walkExpr(e.operand, fn);
      break;
    case 'call':
      if (e.target) walkExpr(e.target, fn);
      for (const a of e.args) walkExpr(a, fn);
      break;
    case 'list':
      for (const a of e.elements) walkExpr(a, fn);
      break;
    case 'map':
      for (const en of e.entries) {
        walkExpr(en.key, fn);
        walkExpr(en.value, fn);
      }
      break;
    case 'struct':
      for (const f of e.fields) walkExpr(f.value, fn);
      break;
    case 'comprehension':
      walkExpr(e.iterRange, fn);
      walkExpr(e.accuInit, fn);
      walkExpr(e.loopCondition, fn);
      walkExpr(e.loopStep, fn);
      walkExpr(e.result, fn);
      break;
    default:
      break;
  }
}
