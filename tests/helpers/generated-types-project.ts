// A user's project holding `kapi gen types` output: a temporary ESM folder whose node_modules/kapi is this repository
// (its built dist/), compiled with the TypeScript compiler API as a user would: strict, NodeNext, skipLibCheck off.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { repoPath, repoRoot, tempDir } from './kapi-process.js';

/** Writes `files` (path → text) into a new project folder and returns the folder. */
export function typesProject(files: Record<string, string>): string {
  const dir = tempDir('kapi-gen-types-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'kapi'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'generated-types', private: true, type: 'module' }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The program of the project's `roots` (relative to it, or absolute) and what they import, compiled as a user would. */
export function projectProgram(dir: string, roots: string[], emit = false): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: !emit,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [repoPath('node_modules', '@types')],
    experimentalDecorators: true,
  };
  return ts.createProgram(
    roots.map((r) => resolve(dir, r)),
    options,
  );
}

/** Compiles the project's `roots` (and what they import); emits .js beside them when `emit`. Resolves with the compiler's errors, `file:line: message`. */
export function compileProject(dir: string, roots: string[], emit = false): string[] {
  const program = projectProgram(dir, roots, emit);
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...(emit ? program.emit().diagnostics : [])];
  return diagnostics.map((d) => {
    const at = d.file && d.start !== undefined ? `${d.file.fileName.replace(`${dir}/`, '')}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return at + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}
