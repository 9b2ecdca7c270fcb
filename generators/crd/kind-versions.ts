/**
 * Finds the root types (`+kubebuilder:object:root=true` interfaces) of the input files: each is one version of a
 * kind, in the group and version its `+groupName`/`+versionName` give (on the type, or in the file's header).
 * `XxxList` roots (with `items`) are list types, as in Go, and are skipped: the CRD names its list kind itself.
 */
import ts from 'typescript';
import type { JSONSchemaProps } from '../../lib/openapi/json-schema-props.js';
import { fileMarkers } from './doc-comments.js';
import { displayPath, GenCrdError, type SourceLocation } from './gen-crd-error.js';
import type { Marker } from './markers.js';
import type { SchemaBuilder } from './schema-builder.js';
import { checkRepeats } from './schema-markers.js';

export interface KindVersion {
  group: string;
  version: string;
  kind: string;
  schema: JSONSchemaProps;
  /** The root type's CRD markers (resource, subresources, printer columns, versions). */
  markers: Marker[];
  loc: SourceLocation;
}

const isRootMarker = (m: Marker) => m.definition.name === 'kubebuilder:object:root' && m.value === true;

function isListType(decl: ts.InterfaceDeclaration): boolean {
  return decl.name.text.endsWith('List') && decl.members.some((m) => m.name !== undefined && ts.isIdentifier(m.name) && m.name.text === 'items');
}

function packageValue(name: string, own: readonly Marker[], file: readonly Marker[]): string | undefined {
  return (own.find((m) => m.definition.name === name) ?? file.find((m) => m.definition.name === name))?.value as string | undefined;
}

export function readKindVersions(sf: ts.SourceFile, builder: SchemaBuilder): KindVersion[] {
  const headerMarkers = fileMarkers(sf, displayPath(sf.fileName));
  checkRepeats(headerMarkers);
  const out: KindVersion[] = [];
  for (const statement of sf.statements) {
    if (!ts.isInterfaceDeclaration(statement)) continue;
    const doc = builder.doc(statement);
    if (!doc.markers.some(isRootMarker) || isListType(statement)) continue;
    checkRepeats(doc.markers);
    const misplaced = doc.markers.find((m) => m.definition.target === 'field');
    if (misplaced) throw GenCrdError.at(misplaced.loc, `+${misplaced.definition.name} belongs on a field, not on type ${statement.name.text}`);
    const loc = builder.loc(statement.name);
    const group = packageValue('groupName', doc.markers, headerMarkers);
    const version = packageValue('versionName', doc.markers, headerMarkers);
    if (group === undefined) throw GenCrdError.at(loc, `root type ${statement.name.text} has no +groupName (on the type or in the file's header comment)`);
    if (version === undefined) throw GenCrdError.at(loc, `root type ${statement.name.text} has no +versionName (on the type or in the file's header comment)`);
    out.push({
      group,
      version,
      kind: statement.name.text,
      schema: builder.rootSchema(statement, doc),
      markers: doc.markers.filter((m) => m.definition.target === 'type'),
      loc,
    });
  }
  return out;
}
