// Runs `kapi serve` as a child process and the real `kubectl` against it, for end-to-end tests.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atWorkerExit, killOnWorkerExit } from './worker-exit.js';

/** The repository root: this file is compiled to `dist/tests/helpers/kapi-process.js`. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Absolute path of a file in the repository, e.g. `repoPath('examples/crd-only/widget.yaml')`. */
export function repoPath(...parts: string[]): string {
  return join(repoRoot, ...parts);
}

const startTimeoutMs = 30_000;
const stopTimeoutMs = 15_000;
/** Passed to every kubectl call as `--request-timeout`. */
export const kubectlRequestTimeout = '20s';
/** A kubectl process still running after this long is killed (it would otherwise hang the test until ava's timeout). */
const kubectlKillAfterMs = 90_000;

export interface StartOptions {
  /** Data directory; when omitted a temporary one is created and removed by `stop()`. */
  dataDir?: string;
  /** Extra `kapi serve` flags. */
  args?: string[];
}

export interface KubectlOptions {
  stdin?: string;
  /** Use this kubeconfig instead of the server's. */
  kubeconfig?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

export interface KubectlResult {
  /** Exit code; null when kubectl was killed by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds the command took. */
  ms: number;
}

export interface StopResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface KapiProcess {
  /** `https://127.0.0.1:PORT` as printed by `kapi serve`. */
  url: string;
  dataDir: string;
  kubeconfig: string;
  /** HOME given to kubectl (so `~/.kube/cache` belongs to this server only). */
  home: string;
  /** Runs `kubectl --request-timeout=20s ARGS` with `KUBECONFIG` and an isolated `HOME`. Never rejects on a non-zero exit. */
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>;
  /** Sends `signal` (default SIGTERM) and resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<StopResult>;
  /** Everything the server printed so far (stdout and stderr interleaved), for failure messages. */
  output(): string;
  readonly child: ChildProcess;
}

/** Creates a temporary directory; the caller removes it (see `removeDir`). */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Folders made by `tempFile`, removed when the test worker exits. */
const tempFileDirs: string[] = [];
atWorkerExit(() => {
  for (const dir of tempFileDirs) removeDir(dir);
});

/** Writes `text` to a new temporary file named `name` and returns its path (removed when the worker exits). */
export function tempFile(name: string, text: string | Uint8Array): string {
  const dir = tempDir('kapi-e2e-file-');
  tempFileDirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Starts `node bin/kapi serve --port 0 --data-dir DIR ARGS` and waits for its `kapi serving on URL` line. */
export async function startKapi(options: StartOptions = {}): Promise<KapiProcess> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? tempDir('kapi-e2e-data-');
  const home = tempDir('kapi-e2e-home-');
  const kubeconfig = join(dataDir, 'kubeconfig');
  const child = spawn(process.execPath, ['bin/kapi', 'serve', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env },
  });
  killOnWorkerExit(child);

  let log = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    stdout += chunk;
    log += chunk;
  });
  child.stderr!.on('data', (chunk: string) => {
    stderr += chunk;
    log += chunk;
  });

  const exited = new Promise<StopResult>((resolveExit) => {
    child.once('exit', (code, signal) => {
      resolveExit({ code, signal });
    });
  });

  const url = await new Promise<string>((resolveUrl, reject) => {
    const fail = (why: string) => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`kapi serve ${why}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
    };
    const onData = () => {
      const match = /kapi serving on (https?:\/\/\S+)/.exec(stdout);
      if (match && /\n/.test(stdout.slice(match.index))) {
        cleanup();
        resolveUrl(match[1]!);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited before serving (code ${code}, signal ${signal})`);
    const onError = (err: Error) => fail(`could not be started: ${err.message}`);
    const timer = setTimeout(() => fail(`printed no "kapi serving on" line within ${startTimeoutMs / 1000}s`), startTimeoutMs);
    function cleanup() {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  }).catch((err: unknown) => {
    removeDir(home);
    if (ownDataDir) removeDir(dataDir);
    throw err;
  });

  let stopped: Promise<StopResult> | undefined;
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): Promise<StopResult> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      const result = await exited;
      clearTimeout(timer);
      removeDir(home);
      if (ownDataDir) removeDir(dataDir);
      return result;
    })();
    return stopped;
  };

  const kubectl = (args: string[], opts: KubectlOptions = {}) =>
    runKubectl(args, {
      ...opts,
      env: { KUBECONFIG: opts.kubeconfig ?? kubeconfig, HOME: home, ...opts.env },
    });

  return { url, dataDir, kubeconfig, home, kubectl, stop, output: () => log, child };
}

/** Runs kubectl with `--request-timeout`; `opts.env` is merged over `process.env`. */
export function runKubectl(args: string[], opts: KubectlOptions = {}): Promise<KubectlResult> {
  const started = Date.now();
  return new Promise((resolveRun, reject) => {
    const child = spawn('kubectl', [`--request-timeout=${kubectlRequestTimeout}`, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[kapi-process: kubectl killed after ${kubectlKillAfterMs / 1000}s]\n`;
      child.kill('SIGKILL');
    }, kubectlKillAfterMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.on('error', () => {
      // kubectl may exit without reading stdin
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

/** Splits kubectl table output into rows of cells (columns are separated by runs of spaces). */
export function table(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/));
}

/** The row whose first cell (or the cell at `column`) is `key`. */
export function row(rows: string[][], key: string, column = 0): string[] | undefined {
  return rows.find((r) => r[column] === key);
}

/** A multi-line description of a kubectl result, used as an assertion message. */
export function describe(result: KubectlResult): string {
  return `exit ${result.code} after ${result.ms}ms\n--- stdout ---\n${result.stdout}--- stderr ---\n${result.stderr}`;
}

/** Retries `fn` until `done(value)` or `timeoutMs` has passed; returns the last value. */
export async function eventually<T>(fn: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Path of a file under `examples/crd-only/`. */
export function example(name: string): string {
  return repoPath('examples/crd-only', name);
}

/**
 * Common starting point of the widget tests: the widgets CRD applied and established, and namespace `namespace`.
 * Throws with kubectl's output when a step fails.
 */
export async function setUpWidgets(kapi: KapiProcess, namespace = 'demo'): Promise<void> {
  // The namespace is applied from a manifest (sent as JSON) rather than with `kubectl create namespace` (sent as
  // protobuf), so that the widget tests do not depend on the protobuf codec; namespaces.test.ts covers that command.
  const steps: [string[], string?][] = [
    [['apply', '-f', '-'], `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${namespace}\n`],
    [['apply', '-f', example('widgets-crd.yaml')]],
    [['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com']],
  ];
  for (const [args, stdin] of steps) {
    const res = await kapi.kubectl(args, { stdin });
    if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${describe(res)}`);
  }
}

export interface SharedKapiOptions extends StartOptions {
  /** Run `setUpWidgets` (the widgets CRD established, namespace demo) before the first test. */
  widgets?: boolean;
}

/**
 * One `kapi serve` for all the tests of a file: registers ava hooks that start it before the first test and stop it
 * after the last. The returned object is filled in by a serial `before` hook, so use it only inside tests and hooks
 * (the file's own `before` hooks run after it).
 */
export function useKapi(opts: SharedKapiOptions = {}): KapiProcess {
  const { widgets, ...startOptions } = opts;
  const kapi = {} as KapiProcess;
  test.serial.before(async () => {
    Object.assign(kapi, await startKapi(startOptions));
    if (widgets) await setUpWidgets(kapi);
  });
  test.after.always(async () => {
    await kapi.stop?.();
  });
  return kapi;
}
