import { chmod, writeFile } from 'node:fs/promises';

/** Writes a file only its owner may read (mode 0600), also when it already existed with a wider mode. */
export async function writePrivateFile(path: string, data: string): Promise<void> {
  await writeFile(path, data, { mode: 0o600 });
  await chmod(path, 0o600);
}
