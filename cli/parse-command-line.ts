import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type GeneratorArgs<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>>;

/** A generator's command line: node:util's strict parseArgs with positionals (the input files); what it refuses is a usage error. */
export function parseGeneratorArgs<const O extends Options>(args: string[], options: O): GeneratorArgs<O> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
