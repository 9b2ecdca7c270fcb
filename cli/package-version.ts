import { readFileSync } from 'node:fs';

/** kapi's version, from its package.json (read at run time: the compiled cli/ is dist/cli/, two levels below it). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
