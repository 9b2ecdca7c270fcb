/**
 * TypeScript types → OpenAPI v3 schemas, read from the syntax with the compiler's checker resolving names:
 * string/number/boolean, string-literal unions as enums, `T | null` as nullable, arrays, `Record<string, T>` maps,
 * interfaces and type literals as objects (`?` = optional), `unknown` as preserved unknown fields, and the branded
 * Int32, Int64, IntOrString and ObjectMeta by name. Referenced types are inlined, as controller-gen does; a type that
 * contains itself is refused.
 */
import ts from 'typescript';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { docComment, locationOf, type DocComment } from './doc-comments.js';
import { displayPath, GenCrdError, type SourceLocation } from './gen-crd-error.js';
import type { Marker } from './markers.js';
import { applySchemaMarkers } from './schema-markers.js';

type NamedDeclaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

const requiredMarkers = ['required', 'kubebuilder:validation:Required'];
const optionalMarkers = ['optional', 'kubebuilder:validation:Optional'];

export class SchemaBuilder {
  /** Where each built schema node comes from, to point errors found later (CEL, defaults) at the source. */
  readonly locations = new WeakMap<object, SourceLocation>();
  private readonly expanding: NamedDeclaration[] = [];

  constructor(private readonly checker: ts.TypeChecker) {}

  loc(node: ts.Node): SourceLocation {
    const sf = node.getSourceFile();
    return locationOf(sf, node.getStart(sf), displayPath(sf.fileName));
  }

  doc(node: ts.Node): DocComment {
    const sf = node.getSourceFile();
    return docComment(sf, displayPath(sf.fileName), node);
  }

  private fail(node: ts.Node, message: string): GenCrdError {
    return GenCrdError.at(this.loc(node), message);
  }

  private located(schema: JSONSchemaProps, node: ts.Node): JSONSchemaProps {
    this.locations.set(schema, this.loc(node));
    return schema;
  }

  /**
   * The object schema of an interface's members (and those of the interfaces it extends). An index signature is a
   * map's values; beside properties, `[key: string]: unknown` keeps unknown fields (a structural schema cannot have
   * both properties and additionalProperties), which is how `kapi gen types` writes such an object.
   */
  objectSchema(decl: ts.InterfaceDeclaration | ts.TypeLiteralNode): JSONSchemaProps {
    const schema: JSONSchemaProps = { type: 'object' };
    const required: string[] = [];
    let index: ts.IndexSignatureDeclaration | undefined;
    for (const member of this.members(decl)) {
      if (ts.isIndexSignatureDeclaration(member)) {
        index = member;
        continue;
      }
      if (!ts.isPropertySignature(member) || !member.type) throw this.fail(member, 'only properties with a type can be part of a CRD schema');
      const name = member.name;
      if (!ts.isIdentifier(name) && !ts.isStringLiteral(name) && !ts.isNoSubstitutionTemplateLiteral(name)) throw this.fail(name, 'a property name must be an identifier or a string');
      const doc = this.doc(member);
      const field = this.fieldSchema(member.type, doc);
      (schema.properties ??= {})[name.text] = this.located(field, member);
      if (this.isRequired(member, doc.markers)) required.push(name.text);
    }
    if (required.length) schema.required = required;
    if (index && schema.properties && index.type.kind === ts.SyntaxKind.UnknownKeyword) schema['x-kubernetes-preserve-unknown-fields'] = true;
    else if (index) schema.additionalProperties = this.typeSchema(index.type);
    return schema;
  }

  private members(decl: ts.InterfaceDeclaration | ts.TypeLiteralNode): ts.TypeElement[] {
    if (ts.isTypeLiteralNode(decl)) return [...decl.members];
    const inherited: ts.TypeElement[] = [];
    for (const clause of decl.heritageClauses ?? []) {
      for (const base of clause.types) {
        const target = this.declarationOf(base.expression, base);
        if (!target || !ts.isInterfaceDeclaration(target)) throw this.fail(base, 'an interface can only extend interfaces');
        inherited.push(...this.enter(target, base, () => this.members(target)));
      }
    }
    return [...inherited, ...decl.members];
  }

  private isRequired(member: ts.PropertySignature, markers: readonly Marker[]): boolean {
    const req = markers.find((m) => requiredMarkers.includes(m.definition.name));
    const opt = markers.find((m) => optionalMarkers.includes(m.definition.name));
    if (req && opt) throw GenCrdError.at(opt.loc, `+${opt.definition.name} contradicts +${req.definition.name} on the same field`);
    if (req) return true;
    if (opt) return false;
    return !member.questionToken;
  }

  /** A field: its type's schema with the field's description and markers on top. */
  private fieldSchema(type: ts.TypeNode, doc: DocComment): JSONSchemaProps {
    const schema = this.typeSchema(type);
    if (doc.description) schema.description = doc.description;
    const misplaced = doc.markers.find((m) => m.definition.target === 'type' || m.definition.target === 'package');
    if (misplaced) throw GenCrdError.at(misplaced.loc, `+${misplaced.definition.name} belongs on a ${misplaced.definition.target === 'package' ? 'file header or root type' : 'root type'}, not on a field`);
    applySchemaMarkers(schema, doc.markers);
    return schema;
  }

  typeSchema(node: ts.TypeNode): JSONSchemaProps {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { type: 'number' };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: 'boolean' };
      case ts.SyntaxKind.UnknownKeyword:
        return { 'x-kubernetes-preserve-unknown-fields': true };
    }
    if (ts.isParenthesizedTypeNode(node)) return this.typeSchema(node.type);
    if (ts.isArrayTypeNode(node)) return { type: 'array', items: this.typeSchema(node.elementType) };
    if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) return this.typeSchema(node.type);
    if (ts.isTypeLiteralNode(node)) return this.objectSchema(node);
    if (ts.isUnionTypeNode(node)) return this.unionSchema(node);
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return { type: 'string', enum: [node.literal.text] };
    if (ts.isTypeReferenceNode(node)) return this.referenceSchema(node);
    throw this.fail(node, `type ${node.getText()} cannot be described by a CRD schema`);
  }

  private unionSchema(node: ts.UnionTypeNode): JSONSchemaProps {
    const isNull = (t: ts.TypeNode) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword;
    const rest = node.types.filter((t) => !isNull(t) && t.kind !== ts.SyntaxKind.UndefinedKeyword);
    const nullable = rest.length < node.types.length && node.types.some(isNull);
    let schema: JSONSchemaProps;
    if (rest.length === 1) schema = this.typeSchema(rest[0]);
    else if (rest.length > 1 && rest.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) {
      schema = { type: 'string', enum: rest.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text) };
    } else throw this.fail(node, `union ${node.getText()} cannot be described by a CRD schema: only unions of string literals (an enum) and T | null are`);
    if (nullable) schema.nullable = true;
    return schema;
  }

  private referenceSchema(node: ts.TypeReferenceNode): JSONSchemaProps {
    const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text;
    const args = node.typeArguments ?? [];
    switch (name) {
      case 'Array':
      case 'ReadonlyArray':
        if (args.length === 1) return { type: 'array', items: this.typeSchema(args[0]) };
        break;
      case 'Record':
        if (args.length === 2 && args[0].kind === ts.SyntaxKind.StringKeyword) return { type: 'object', additionalProperties: this.typeSchema(args[1]) };
        throw this.fail(node, 'a map must be Record<string, T>');
      case 'Int32':
        return { type: 'integer', format: 'int32' };
      case 'Int64':
        return { type: 'integer', format: 'int64' };
      case 'IntOrString':
        return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
      case 'ObjectMeta':
        return { type: 'object' };
    }
    if (args.length) throw this.fail(node, `generic type ${node.getText()} cannot be described by a CRD schema`);
    const decl = this.declarationOf(node.typeName, node);
    if (!decl) throw this.fail(node, `type ${name} cannot be described by a CRD schema: declare it as an interface or a type alias`);
    return this.enter(decl, node, () => this.declarationSchema(decl));
  }

  /** Expands `decl` where `ref` names it; refuses a type that contains itself. */
  private enter<T>(decl: NamedDeclaration, ref: ts.Node, build: () => T): T {
    if (this.expanding.includes(decl)) {
      const chain = [...this.expanding.slice(this.expanding.indexOf(decl)), decl].map((d) => d.name.text).join(' → ');
      throw this.fail(ref, `recursive type ${decl.name.text} (${chain}): a CRD schema cannot contain itself`);
    }
    this.expanding.push(decl);
    try {
      return build();
    } finally {
      this.expanding.pop();
    }
  }

  private declarationOf(name: ts.EntityName | ts.Expression, ref: ts.Node): NamedDeclaration | undefined {
    let symbol = this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const decl = symbol?.declarations?.find((d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d)) as NamedDeclaration | undefined;
    if (decl?.typeParameters?.length) throw this.fail(ref, `generic type ${decl.name.text} cannot be described by a CRD schema`);
    return decl;
  }

  /** A named type's schema with its description and its type markers (those a field's markers may override). */
  private declarationSchema(decl: NamedDeclaration): JSONSchemaProps {
    const schema = ts.isInterfaceDeclaration(decl) ? this.objectSchema(decl) : this.typeSchema(decl.type);
    const doc = this.doc(decl);
    const misplaced = doc.markers.find((m) => m.definition.target !== 'type-or-field');
    if (misplaced) throw GenCrdError.at(misplaced.loc, `+${misplaced.definition.name} belongs on ${misplaced.definition.target === 'field' ? 'a field' : 'a root type (+kubebuilder:object:root=true)'}, not on type ${decl.name.text}`);
    if (doc.description) schema.description = doc.description;
    applySchemaMarkers(schema, doc.markers);
    return this.located(schema, decl);
  }

  /** The schema of a root type: its object schema with its schema markers; the CRD markers are read by the caller. */
  rootSchema(decl: ts.InterfaceDeclaration, doc: DocComment): JSONSchemaProps {
    const schema = this.enter(decl, decl, () => this.objectSchema(decl));
    if (doc.description) schema.description = doc.description;
    applySchemaMarkers(schema, doc.markers.filter((m) => m.definition.target === 'type-or-field'));
    return this.located(schema, decl);
  }
}
