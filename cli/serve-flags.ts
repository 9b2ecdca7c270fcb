import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

export const serveUsage = `Usage: kapi serve [flags]

Runs an API server over HTTPS. At first start it creates a CA, a serving certificate, an admin token and a
kubeconfig in the data directory; later starts reuse them.

Flags:
  --data-dir DIR              where state, certificates and the kubeconfig live (default .kapi)
  --port N                    HTTPS port; 0 picks a free one (default 6443)
  --bind-address ADDR         address to listen on (default 127.0.0.1)
  --storage sqlite|memory     storage engine (default sqlite)
  --crds PATH                 CRD YAML file or folder to serve from the start; repeatable
  --admission-plugins A,B     admission plugins to run, in this order ("" for none; default: those enabled by default)
  -h, --help                  show this help
`;

export interface ServeOptions {
  /** Absolute. */
  dataDir: string;
  port: number;
  bindAddress: string;
  storage: 'sqlite' | 'memory';
  /** Absolute. */
  crdPaths: string[];
  /** Absent: the registered plugins that are enabled by default. */
  admissionPlugins?: string[];
}

/** Parses `kapi serve` flags; `help` when the user asked for usage. Throws `UsageError` on a bad command line. */
export function parseServeFlags(args: string[]): ServeOptions | 'help' {
  const { values } = parse(args);
  if (values.help) return 'help';
  const storage = values.storage;
  if (storage !== 'sqlite' && storage !== 'memory') {
    throw new UsageError(`invalid --storage "${storage}": must be sqlite or memory`);
  }
  return {
    dataDir: resolve(values['data-dir']),
    port: parsePort(values.port),
    bindAddress: values['bind-address'],
    storage,
    crdPaths: (values.crds ?? []).map((p) => resolve(p)),
    ...(values['admission-plugins'] !== undefined ? { admissionPlugins: parseList(values['admission-plugins']) } : {}),
  };
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string', default: '.kapi' },
        port: { type: 'string', default: '6443' },
        'bind-address': { type: 'string', default: '127.0.0.1' },
        storage: { type: 'string', default: 'sqlite' },
        crds: { type: 'string', multiple: true },
        'admission-plugins': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** "a, b" → ['a', 'b']; "" → [] (none). */
function parseList(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`invalid --port "${text}": must be a number from 0 to 65535`);
  return port;
}
