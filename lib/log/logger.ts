import pino from 'pino';
import { formatTextLine } from './text-line.js';

/** kube's `--logging-format`: klog's text lines (the default) or one JSON object per line. */
export type LoggingFormat = 'text' | 'json';

export interface LoggingOptions {
  format?: LoggingFormat;
  /** kube's `-v`: info messages up to this verbosity are written (default 0). Errors and warnings always are. */
  verbosity?: number;
  /** Where lines go (default: standard error, as klog writes). */
  destination?: { write(line: string): unknown };
}

/** Key-value pairs logged with a message, klog's structured logging; `err` is an Error, written with its stack. */
export type LogFields = Record<string, unknown>;

export interface VerboseLogger {
  info(message: string, fields?: LogFields): void;
}

/**
 * The process's one logger, as klog is kube-apiserver's: errors, warnings and info messages at a verbosity, written
 * through pino as JSON lines or klog-style text. Process-wide, because the servers of one process share its stderr.
 */
export interface Logger extends VerboseLogger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  /** klog's V(level): enabled when `-v` is at least `level` (request logs are V(3), as kube's httplog). */
  v(level: number): VerboseLogger;
  enabled(level: number): boolean;
}

const silent: VerboseLogger = { info() {} };
let verbosity = 0;
let sink = createSink('text', process.stderr);

/** Sets the format, verbosity and destination of every later line. */
export function configureLogging(options: LoggingOptions): void {
  verbosity = options.verbosity ?? 0;
  sink = createSink(options.format ?? 'text', options.destination ?? process.stderr);
}

export const log: Logger = {
  error: (message, fields) => sink.error(fields ?? {}, message),
  warn: (message, fields) => sink.warn(fields ?? {}, message),
  info: (message, fields) => sink.info({ v: 0, ...fields }, message),
  v: (level) => (level <= verbosity ? { info: (message, fields) => sink.info({ v: level, ...fields }, message) } : silent),
  enabled: (level) => level <= verbosity,
};

/**
 * pino writing synchronously (a crash's last lines must not be lost) with kube's JSON keys: `ts` in seconds, `msg`,
 * no pid or hostname; text lines are formatted from that JSON.
 */
function createSink(format: LoggingFormat, destination: { write(line: string): unknown }): pino.Logger {
  const stream = format === 'json' ? destination : { write: (line: string) => destination.write(formatTextLine(line)) };
  return pino(
    {
      base: undefined,
      level: 'info',
      timestamp: () => `,"ts":${Date.now() / 1000}`,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
}
