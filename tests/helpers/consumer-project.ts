// A fresh ESM project that depends on a packed kapi tarball, installed offline from the npm cache.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoPath } from './kapi-process.js';

const run = promisify(execFile);

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}

/** `npm` with its output captured; rejects with both streams when it fails. */
export async function npm(cwd: string, args: string[]): Promise<string> {
  try {
    return (await run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`);
  }
}

/**
 * `npm pack`s kapi into `destination`; resolves with the tarball's path and the files it holds. dist must be current
 * (`npm test` builds it first): packing skips `prepare`, which would build it again.
 */
export async function packKapi(destination: string): Promise<{ tarball: string; files: string[] }> {
  const [{ filename, files }] = JSON.parse(await npm(repoPath(), ['pack', '--ignore-scripts', '--json', '--pack-destination', destination])) as [
    { filename: string; files: { path: string }[] },
  ];
  return { tarball: join(destination, filename), files: files.map((f) => f.path) };
}

/**
 * Writes `dir/package.json` depending on the tarball, typescript and @types/node (the versions kapi builds with), then
 * installs it offline (installProjectOffline).
 */
export async function installOffline(dir: string, tarball: string): Promise<void> {
  const kapi = kapiPackageJson();
  const dependencies: Record<string, string> = { kapi: `file:${tarball}` };
  // typescript is a dependency of kapi itself (kapi gen crd reads TypeScript), @types/node a dev dependency.
  for (const name of ['typescript', '@types/node']) dependencies[name] = kapi.devDependencies[name] ?? kapi.dependencies[name]!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2));
  await installProjectOffline(dir, tarball);
}

/**
 * Installs the project in `dir` (its package.json depending on kapi as `file:` the tarball, and on packages kapi's own
 * lock holds) offline: writes a package-lock.json whose entries are copied from kapi's lock, then runs
 * `npm ci --offline`.
 *
 * The lock is what makes the install offline: resolving a new dependency needs registry metadata npm ci never
 * fetched, while locked versions need only what it did fetch. `--ignore-scripts` because better-sqlite3's install
 * script downloads a prebuilt binary or compiles one (neither offline, nor quick): when the project depends on
 * better-sqlite3, the binary kapi's own install got is copied in its place (same package version, same Node).
 */
export async function installProjectOffline(dir: string, tarball: string): Promise<void> {
  const repoLock = (JSON.parse(readFileSync(repoPath('package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const kapi = kapiPackageJson();
  const project = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const { dependencies = {}, devDependencies = {} } = project;
  const packages: Record<string, LockEntry> = {
    '': { name: project.name, dependencies, devDependencies },
    'node_modules/kapi': { version: kapi.version, resolved: `file:${tarball}`, dependencies: kapi.dependencies, bin: kapi.bin },
  };
  const roots = [...Object.keys(kapi.dependencies), ...Object.keys({ ...dependencies, ...devDependencies }).filter((name) => name !== 'kapi')];
  const pending = roots.map((name) => lockedPath(repoLock, '', name));
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (packages[path]) continue;
    const { dev, devOptional, ...entry } = repoLock[path]!;
    packages[path] = entry;
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) pending.push(lockedPath(repoLock, path, name));
  }
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: project.name, lockfileVersion: 3, requires: true, packages }, null, 2));
  await npm(dir, ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund']);
  if (dependencies['better-sqlite3'] !== undefined) {
    const binding = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    mkdirSync(dirname(join(dir, binding)), { recursive: true });
    copyFileSync(repoPath(binding), join(dir, binding));
  }
}

function kapiPackageJson(): { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; bin: Record<string, string> } {
  return JSON.parse(readFileSync(repoPath('package.json'), 'utf8'));
}

/** Where Node finds `name` required from the package at `from` ('' for the root): the nearest node_modules up. */
function lockedPath(lock: Record<string, LockEntry>, from: string, name: string): string {
  for (let at = from; ; at = at.includes('/node_modules/') ? at.slice(0, at.lastIndexOf('/node_modules/')) : '') {
    const path = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (lock[path]) return path;
    if (!at) throw new Error(`${name} (needed by ${from || 'the root'}) is not in package-lock.json`);
  }
}
