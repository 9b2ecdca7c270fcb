import type { LoggingFormat, LoggingOptions } from '../index.js';
import { UsageError } from './usage-error.js';

export const loggingUsage = `  --logging-format FORMAT     text (klog's lines, the default) or json (one object per line); --log-format too
  -v, --v N                   log verbosity: 3 adds a line per request with its Audit-ID (default 0)
`;

export const loggingFlagOptions = {
  'logging-format': { type: 'string' },
  'log-format': { type: 'string' },
  v: { type: 'string', short: 'v' },
} as const;

type LoggingFlag = keyof typeof loggingFlagOptions;

export interface LoggingServeOptions {
  /** Absent when no logging flag was given: the defaults (text, verbosity 0). */
  logging?: LoggingOptions;
}

const formats: readonly LoggingFormat[] = ['text', 'json'];

/** kube's `--logging-format` and `-v`, with kube's messages. */
export function parseLoggingFlags(values: Partial<Record<LoggingFlag, string>>): LoggingServeOptions {
  const format = values['logging-format'] ?? values['log-format'];
  // pflag takes `-v=3` as well as `-v 3`; node's parseArgs leaves the `=` in a short option's value
  const verbosity = values.v?.replace(/^=/, '');
  if (format === undefined && verbosity === undefined) return {};
  if (format !== undefined && !formats.includes(format as LoggingFormat)) {
    throw new UsageError(`format: Unsupported value: "${format}": supported values: "json", "text"`);
  }
  if (verbosity !== undefined && !/^\d+$/.test(verbosity)) {
    throw new UsageError(`invalid argument "${verbosity}" for "-v, --v" flag: strconv.ParseInt: parsing "${verbosity}": invalid syntax`);
  }
  return { logging: { format: (format ?? 'text') as LoggingFormat, verbosity: Number(verbosity ?? 0) } };
}
