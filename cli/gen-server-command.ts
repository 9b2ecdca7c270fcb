import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { checkServerInput, generateServer, GenServerError, type DependencyVersions } from '../generators/server/index.js';
import { firstNonLoopbackAddress } from './first-non-loopback-address.js';
import { kapiPackageJson } from './package-version.js';
import { parseGeneratorArgs } from './parse-command-line.js';
import { UsageError } from './usage-error.js';

export const genServerUsage = `Usage: kapi gen server NAME --group GROUP [--kind KIND]... [flags]

Writes a new project of an aggregated API server built on kapi into DIR: package.json, tsconfig.json, src/ (the kinds
as TypeScript with controller-gen's markers, a SQLite-backed RestStorage per kind, a computed read-only resource, an
admission plugin stub, main.ts serving behind a front or --standalone), ava tests, pki/ (a CA and a serving
certificate for the Service api.NAME.svc and ADDRESS), deploy/ (namespace NAME, the ServiceAccount NAME and its
auth-delegation bindings, Service and Endpoints, the APIService with the CA as caBundle, a viewer role) and a README.
DIR must not exist or be empty; nothing is written when an input is refused.

Flags:
  --group GROUP        the API group (a DNS subdomain with a dot, e.g. example.com); required
  --kind KIND          a kind kept in SQLite (UpperCamelCase); repeatable (default: Widget)
  --version VERSION    the API version (default: v1alpha1)
  -o, --output DIR     the project's folder (default: ./NAME)
  --kapi PATH-OR-SPEC  the kapi dependency: a packed kapi tarball or folder (as file:PATH), or an npm version spec
                       (default: ^VERSION of this kapi)
  --address IP         the address the front reaches the server at, in the Endpoints and the certificate (default:
                       this machine's first non-loopback IPv4 address)
  --port PORT          the port the server listens on (default: 8443)
  -h, --help           show this help
`;

export interface GenServerOptions {
  name: string;
  group: string;
  kinds: string[];
  version?: string;
  output: string;
  kapi: string;
  address: string;
  port: number;
}

/** Parses `kapi gen server` arguments; `help` when the user asked for usage. Throws `UsageError` on a bad command line. */
export function parseGenServerFlags(args: string[]): GenServerOptions | 'help' {
  const { values, positionals } = parseGeneratorArgs(args, {
    group: { type: 'string' },
    kind: { type: 'string', multiple: true },
    version: { type: 'string' },
    output: { type: 'string', short: 'o' },
    kapi: { type: 'string' },
    address: { type: 'string' },
    port: { type: 'string', default: '8443' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new UsageError('missing the project NAME');
  if (positionals.length > 1) throw new UsageError(`one project NAME, not ${positionals.length} (${positionals.join(' ')})`);
  if (values.group === undefined) throw new UsageError('missing --group');
  const name = positionals[0]!;
  const address = values.address ?? firstNonLoopbackAddress();
  if (address === undefined) throw new UsageError('this machine has no non-loopback IPv4 address for the Endpoints: set --address');
  if (!/^[0-9]+$/.test(values.port)) throw new UsageError(`invalid --port "${values.port}": a number from 1 to 65535`);
  return {
    name,
    group: values.group,
    kinds: values.kind ?? ['Widget'],
    ...(values.version !== undefined ? { version: values.version } : {}),
    output: values.output ?? name,
    kapi: values.kapi === undefined ? `^${kapiPackageJson().version}` : kapiDependency(values.kapi),
    address,
    port: Number(values.port),
  };
}

/** A tarball or folder on disk is depended on as `file:` its absolute path; anything else is an npm spec as given. */
function kapiDependency(value: string): string {
  return existsSync(value) ? `file:${resolve(value)}` : value;
}

/** The versions of kapi's own dependencies the project needs: kapi's lock resolves them. */
function dependencyVersions(): DependencyVersions {
  const { dependencies, devDependencies } = kapiPackageJson();
  const all = { ...devDependencies, ...dependencies };
  const names = ['better-sqlite3', 'yaml', 'typescript', '@types/node', '@types/better-sqlite3', 'ava'] as const;
  return Object.fromEntries(names.map((n) => [n, all[n]!])) as Record<(typeof names)[number], string>;
}

/** Refuses a DIR that exists and is not an empty folder (as `kubebuilder init` or `git clone` do). */
async function checkOutput(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw new Error(`${dir} exists and is not a folder`);
    throw err;
  }
  if (entries.length > 0) throw new Error(`${dir} is not empty`);
}

/**
 * `kapi gen server`: resolves with the exit code. The project is written into a temporary folder beside DIR, then
 * renamed to DIR, so a failure leaves no half project.
 */
export async function genServer(args: string[]): Promise<number> {
  const opts = parseGenServerFlags(args);
  if (opts === 'help') {
    process.stdout.write(genServerUsage);
    return 0;
  }
  try {
    checkServerInput(opts);
  } catch (err) {
    if (err instanceof GenServerError) throw new UsageError(err.message);
    throw err;
  }
  const target = resolve(opts.output);
  await checkOutput(target);
  await mkdir(dirname(target), { recursive: true });
  const temp = await mkdtemp(join(dirname(target), `.${basename(target)}.tmp-`));
  try {
    // Loaded once the input is checked: the package entry loads the whole server.
    const { ensurePki } = await import('../index.js');
    const pki = await ensurePki(join(temp, 'pki'), { hosts: [`api.${opts.name}.svc`, `api.${opts.name}.svc.cluster.local`, opts.address] });
    for (const f of generateServer({ ...opts, dependencies: dependencyVersions(), caCertPem: pki.caCertPem })) {
      await mkdir(dirname(join(temp, f.path)), { recursive: true });
      await writeFile(join(temp, f.path), f.text);
    }
    // mkdtemp's folder is private (0700); the project's is an ordinary folder
    await chmod(temp, 0o777 & ~process.umask());
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  process.stderr.write(`kapi: wrote the project ${opts.output}\n`);
  return 0;
}
