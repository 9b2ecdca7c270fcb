// The README's admission plugin example (and its resource served from its own storage) type-checks against the package's declarations as a user's project would
// check it: strict, ESM, and with skipLibCheck off (so kapi's emitted .d.ts files are checked too).
import test from 'ava';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { repoPath } from '../helpers/kapi-process.js';

/** The README's TypeScript block that uses `name`. */
function readmeSnippet(name: string): string {
  const blocks = [...readFileSync(repoPath('README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const found = blocks.filter((b) => b.includes(name));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} TypeScript blocks using ${name}`);
  return found[0]!;
}

/** The compiler's errors for `source` as a module of a project beside dist/ (the built package). */
function typeErrors(source: string): string[] {
  const file = repoPath('readme-snippet.mts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    experimentalDecorators: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => (name === file ? ts.createSourceFile(name, source, lang) : getSourceFile.call(host, name, lang, ...rest));
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test("the README's admission plugins compile against the built package, skipLibCheck off", (t) => {
  const snippet = readmeSnippet('defineAdmissionPlugin');
  t.true(snippet.includes("from 'kapi'"));
  t.deepEqual(typeErrors(snippet.replace("from 'kapi'", `from '${repoPath('dist/index.js')}'`)), []);
});

test("the README's resource from its own storage compiles against the built package, skipLibCheck off", (t) => {
  const snippet = readmeSnippet('resourceModule');
  t.true(snippet.includes("from 'kapi'"));
  t.deepEqual(typeErrors(snippet.replace("from 'kapi'", `from '${repoPath('dist/index.js')}'`)), []);
});

test("the README's strategy hooks compile against the built package, skipLibCheck off", (t) => {
  const snippet = readmeSnippet('defineStrategy');
  t.true(snippet.includes("from 'kapi'"));
  t.deepEqual(typeErrors(snippet.replace("from 'kapi'", `from '${repoPath('dist/index.js')}'`)), []);
});

test("the README's audit modules compile against the built package, skipLibCheck off", (t) => {
  const snippet = readmeSnippet('auditModule');
  t.true(snippet.includes("from 'kapi'"));
  t.deepEqual(typeErrors(snippet.replace("from 'kapi'", `from '${repoPath('dist/index.js')}'`)), []);
});
