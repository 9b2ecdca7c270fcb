import { configureLogging } from '../../index.js';

/** A line kapi logged, as its JSON format writes it. */
export interface LoggedLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * Runs `fn` with what kapi logs (at verbosity `verbosity`) collected as parsed JSON lines instead of written to
 * stderr; the process's default logging is back afterwards.
 */
export async function withCapturedLog<T>(fn: (lines: LoggedLine[]) => Promise<T>, verbosity = 0): Promise<T> {
  const lines: LoggedLine[] = [];
  configureLogging({ format: 'json', verbosity, destination: { write: (line: string) => lines.push(JSON.parse(line) as LoggedLine) } });
  try {
    return await fn(lines);
  } finally {
    configureLogging({});
  }
}
