import { parseGoDuration } from '../lib/go/duration.js';
import { UsageError } from './usage-error.js';

/** A duration flag's value in nanoseconds, as pflag's DurationVar takes it (kube's message when it is no duration). */
export function parseDurationFlag(flag: string, text: string): bigint {
  const nanos = parseGoDuration(text);
  if (nanos === undefined) throw new UsageError(`invalid argument "${text}" for "--${flag}" flag: time: invalid duration ${JSON.stringify(text)}`);
  return nanos;
}
