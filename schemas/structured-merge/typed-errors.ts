/**
 * Errors of a value that does not fit its model, worded as structured-merge-diff's ValidationErrors: one error is
 * `<path>: <message>`, several are `errors:` followed by one indented line each.
 */
import { pathString, type Path } from './path-element.js';

export interface ValidationError {
  path: string;
  message: string;
}

export function validationError(path: Path, message: string): ValidationError {
  return { path: pathString(path), message };
}

function formatValidationErrors(errs: readonly ValidationError[]): string {
  const one = (e: ValidationError) => (e.path ? `${e.path}: ${e.message}` : e.message);
  if (errs.length === 1) return one(errs[0]);
  return ['errors:', ...errs.map((e) => '  ' + one(e))].join('\n');
}

/** Thrown by the typed walks when an object cannot be walked (e.g. a map-list item without its key). */
export class TypedValueError extends Error {
  constructor(readonly errors: ValidationError[]) {
    super(formatValidationErrors(errors));
  }
}
