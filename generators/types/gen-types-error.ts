/** Input `kapi gen types` cannot turn into types: the message names the file and where in it. */
export class GenTypesError extends Error {
  override readonly name = 'GenTypesError';
}
