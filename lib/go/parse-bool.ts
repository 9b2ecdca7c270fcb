import { goQuote } from './go-values.js';

/** Go's strconv.ParseBool: the boolean `text` spells, or undefined when it spells none. */
export function goParseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** The error Go's strconv.ParseBool returns for `text`. */
export function goParseBoolError(text: string): string {
  return `strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`;
}
