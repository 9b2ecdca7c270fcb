import { relative } from 'node:path';

/** Where something is in a TypeScript source: the file as given on the command line, 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** How a source file is named in messages: relative to the working directory. */
export function displayPath(fileName: string): string {
  return relative(process.cwd(), fileName) || fileName;
}

export function formatLocation(loc: SourceLocation): string {
  return `${loc.file}:${loc.line}:${loc.column}`;
}

/** A problem in the input of `kapi gen crd`: one message per problem, each starting with file:line:column. */
export class GenCrdError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'GenCrdError';
    this.problems = problems;
  }

  static at(loc: SourceLocation, message: string): GenCrdError {
    return new GenCrdError([`${formatLocation(loc)}: ${message}`]);
  }
}
