/** A command line the CLI cannot act on; reported on stderr with exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
