/**
 * What "equivalent" means for the `kapi gen crd` → `kapi gen types` round trip, checked with the TypeScript compiler
 * on the input types and the generated ones in one program. A kind's generated root type G is equivalent to its input
 * root type I when, at every path from the roots down (properties, array elements, index signatures):
 *
 * - the same properties are there, each optional in both or in neither, and I has an index signature where G does;
 * - each is nullable (`| null`) in both or in neither;
 * - objects are compared by these rules, property by property (their names may differ: `WidgetPort` is generated as
 *   `WidgetSpecPortsItem`); arrays by their elements; `unknown` only matches `unknown`; any other type (primitives,
 *   unions of literals, `number | string`, kapi's `ObjectMeta`) must be assignable both ways, so the branded `Int32`
 *   matches `number` and an alias of a union matches the union written out;
 * - where I's property has a description (its doc comment without the marker lines, as `kapi gen crd` reads it), G's
 *   doc comment says the same; the root types' descriptions too;
 * - at the root, G's `apiVersion` and `kind` are the literal group/version and kind, and I's (if declared) accept
 *   them: they are compared by that rule only.
 *
 * Property order is not compared: a type does not depend on it. Docs of nested interfaces are not compared either: a
 * CRD property has one description, which `kapi gen types` gives both the field and the interface of its type.
 */
import ts from 'typescript';
import { docComment } from '../../generators/crd/doc-comments.js';

export interface RootPair {
  input: ts.InterfaceDeclaration;
  generated: ts.InterfaceDeclaration;
  apiVersion: string;
  kind: string;
}

/** The differences between an input root type and its generated one, `path: what differs`; none when equivalent. */
export function typeDifferences(checker: ts.TypeChecker, roots: RootPair): string[] {
  return new Comparison(checker).roots(roots);
}

const rootLiterals = ['apiVersion', 'kind'] as const;

class Comparison {
  private readonly out: string[] = [];

  constructor(private readonly checker: ts.TypeChecker) {}

  roots({ input, generated, apiVersion, kind }: RootPair): string[] {
    const inType = this.checker.getTypeAtLocation(input.name);
    const genType = this.checker.getTypeAtLocation(generated.name);
    this.compareDocs(kind, description(input), this.docOf(this.checker.getSymbolAtLocation(generated.name)));
    const literals = { apiVersion, kind };
    for (const name of rootLiterals) {
      const gen = genType.getProperty(name);
      const shown = gen ? this.checker.typeToString(this.checker.getTypeOfSymbol(gen)) : 'missing';
      if (shown !== JSON.stringify(literals[name])) this.diff(name, `${JSON.stringify(literals[name])} expected, ${shown} generated`);
      const own = inType.getProperty(name);
      if (!gen || !own) continue;
      if (!this.checker.isTypeAssignableTo(this.checker.getTypeOfSymbol(gen), this.checker.getTypeOfSymbol(own))) {
        this.diff(name, `the input's ${this.show(this.checker.getTypeOfSymbol(own))} does not accept ${shown}`);
      }
      this.compareDocs(name, memberDescription(own), this.docOf(gen));
    }
    this.compareObjects('', inType, genType, rootLiterals);
    return this.out;
  }

  private compare(path: string, input: ts.Type, generated: ts.Type): void {
    const nullable = (t: ts.Type) => (isNullable(t) ? 'nullable' : 'not nullable');
    if (isNullable(input) !== isNullable(generated)) this.diff(path, `${nullable(input)} in the input, ${nullable(generated)} generated`);
    if (isUnknown(input) || isUnknown(generated)) {
      if (!isUnknown(input) || !isUnknown(generated)) this.diff(path, `${this.show(input)} in the input, ${this.show(generated)} generated`);
      return;
    }
    const a = this.checker.getNonNullableType(input);
    const b = this.checker.getNonNullableType(generated);
    if (this.checker.isArrayType(a) && this.checker.isArrayType(b)) return this.compare(`${path}[]`, this.element(a), this.element(b));
    if (this.isObject(a) && this.isObject(b)) return this.compareObjects(path, a, b, []);
    const both = this.checker.isTypeAssignableTo(a, b) && this.checker.isTypeAssignableTo(b, a);
    if (!both) this.diff(path, `${this.show(a)} in the input, ${this.show(b)} generated`);
  }

  private compareObjects(path: string, input: ts.Type, generated: ts.Type, skip: readonly string[]): void {
    const props = (t: ts.Type) => new Map(this.checker.getPropertiesOfType(t).filter((p) => !skip.includes(p.name)).map((p) => [p.name, p]));
    const inProps = props(input);
    const genProps = props(generated);
    for (const name of [...new Set([...inProps.keys(), ...genProps.keys()])].sort()) {
      const at = path ? `${path}.${name}` : name;
      const own = inProps.get(name);
      const gen = genProps.get(name);
      if (!own || !gen) {
        this.diff(at, own ? 'in the input only' : 'generated only');
        continue;
      }
      const optional = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Optional ? 'optional' : 'required');
      if (optional(own) !== optional(gen)) this.diff(at, `${optional(own)} in the input, ${optional(gen)} generated`);
      this.compareDocs(at, memberDescription(own), this.docOf(gen));
      this.compare(at, this.checker.getTypeOfSymbol(own), this.checker.getTypeOfSymbol(gen));
    }
    const inIndex = this.stringIndex(input);
    const genIndex = this.stringIndex(generated);
    if (inIndex && genIndex) this.compare(`${path}[*]`, inIndex, genIndex);
    else if (inIndex || genIndex) this.diff(path || '(root)', `an index signature ${inIndex ? 'in the input only' : 'generated only'}`);
  }

  private compareDocs(path: string, input: string, generated: string): void {
    if (input && input !== generated) this.diff(path, `described ${JSON.stringify(input)} in the input, ${JSON.stringify(generated)} generated`);
  }

  /** An object type compared property by property: not an array, and not kapi's ObjectMeta (compared as a whole). */
  private isObject(t: ts.Type): boolean {
    return (t.flags & ts.TypeFlags.Object) !== 0 && !this.checker.isArrayType(t) && (t.aliasSymbol ?? t.getSymbol())?.name !== 'ObjectMeta';
  }

  private element(array: ts.Type): ts.Type {
    return this.checker.getTypeArguments(array as ts.TypeReference)[0]!;
  }

  private stringIndex(t: ts.Type): ts.Type | undefined {
    return this.checker.getIndexInfosOfType(t).find((i) => i.keyType.flags & ts.TypeFlags.String)?.type;
  }

  private docOf(symbol: ts.Symbol | undefined): string {
    return symbol ? ts.displayPartsToString(symbol.getDocumentationComment(this.checker)) : '';
  }

  private show(t: ts.Type): string {
    return this.checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  private diff(path: string, what: string): void {
    this.out.push(`${path}: ${what}`);
  }
}

/** A declaration's description as `kapi gen crd` reads it: its doc comment block (`/** *\/` or `//`) without markers. */
function description(node: ts.Node): string {
  const sf = node.getSourceFile();
  return docComment(sf, sf.fileName, node).description;
}

function memberDescription(symbol: ts.Symbol): string {
  const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
  return decl ? description(decl) : '';
}

function isNullable(t: ts.Type): boolean {
  return t.isUnion() ? t.types.some((m) => m.flags & ts.TypeFlags.Null) : (t.flags & ts.TypeFlags.Null) !== 0;
}

function isUnknown(t: ts.Type): boolean {
  return (t.flags & ts.TypeFlags.Unknown) !== 0;
}
