/** Input `kapi gen server` refuses (a bad project name, group, version or kind); nothing has been written. */
export class GenServerError extends Error {
  override readonly name = 'GenServerError';
}
