import { readFileSync } from 'node:fs';

export interface KapiPackageJson {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** kapi's package.json (read at run time: the compiled cli/ is dist/cli/, two levels below it). */
export function kapiPackageJson(): KapiPackageJson {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as KapiPackageJson;
}

/** kapi's version, from its package.json. */
export function packageVersion(): string {
  return kapiPackageJson().version;
}
