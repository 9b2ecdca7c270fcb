import { UsageError } from './usage-error.js';

/** Go's strconv.ParseBool, as kube's boolean flags take their value (`--anonymous-auth=false`). */
export function parseBool(flag: string, text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new UsageError(`invalid argument "${text}" for "--${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
}
