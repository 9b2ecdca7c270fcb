/**
 * Compiles the input files with the TypeScript compiler (strict, ES modules as Node 20 loads them) and refuses them
 * with tsc's diagnostics when they do not compile: a CRD is only generated from types TypeScript accepts.
 */
import ts from 'typescript';
import { displayPath, GenCrdError } from './gen-crd-error.js';

const options: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts'],
  types: [],
  skipLibCheck: true,
};

function describe(d: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file || d.start === undefined) return `error TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${displayPath(d.file.fileName)}:${line + 1}:${character + 1}: error TS${d.code}: ${text}`;
}

/** The program and the input files' source files; throws GenCrdError with tsc's errors in the input files. */
export function compileSources(files: string[]): { program: ts.Program; sources: ts.SourceFile[] } {
  const program = ts.createProgram(files, options);
  const sources = files.map((f) => program.getSourceFile(f));
  const missing = files.filter((_, i) => !sources[i]);
  if (missing.length) throw new GenCrdError(missing.map((f) => `${f}: cannot read the file`));
  const diagnostics = [...program.getOptionsDiagnostics(), ...sources.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)])];
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) throw new GenCrdError(errors.map(describe));
  return { program, sources: sources as ts.SourceFile[] };
}
