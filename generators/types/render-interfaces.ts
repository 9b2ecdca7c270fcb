/** TypeScript text of interfaces: doc comments from descriptions, one field a line, two-space indent. */
import type { TsField, TsInterface } from './ts-model.js';
import { propertyKey } from './ts-names.js';

export function renderInterface(iface: TsInterface): string {
  const fields = iface.fields.map(renderField);
  if (iface.open) fields.push('  [field: string]: unknown;\n');
  return `${docComment(iface.doc, '')}export interface ${iface.name} {\n${fields.join('')}}\n`;
}

function renderField(field: TsField): string {
  return `${docComment(field.doc, '  ')}  ${propertyKey(field.name)}${field.optional ? '?' : ''}: ${field.type};\n`;
}

/** A JSDoc comment of `text` (empty when there is none); a star-slash in the text is escaped so it cannot end the comment. */
export function docComment(text: string | undefined, indent: string): string {
  const lines = text?.trimEnd().replace(/\*\//g, '*\\/').split('\n');
  if (!lines?.length || !text?.trim()) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0]!.trim()} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l.trimEnd() ? ` ${l.trimEnd()}` : ''}\n`).join('')}${indent} */\n`;
}
