import { UsageError } from './usage-error.js';
import { goParseBool, goParseBoolError } from '../lib/go/parse-bool.js';

/** Go's strconv.ParseBool, as kube's boolean flags take their value (`--anonymous-auth=false`). */
export function parseBool(flag: string, text: string): boolean {
  const value = goParseBool(text);
  if (value === undefined) throw new UsageError(`invalid argument "${text}" for "--${flag}" flag: ${goParseBoolError(text)}`);
  return value;
}
