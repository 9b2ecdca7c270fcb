/**
 * The official Kubernetes Python client as Debian packages it (python3-kubernetes), run with /usr/bin/python3 — never
 * a pyenv shim or a virtualenv, and isolated (-I) from PYTHON* variables and the user's site-packages.
 *
 *   pythonClientTests(() => { test('...', async (t) => { const out = await runPythonScenario(...); ... }); });
 *
 * When /usr/bin/python3 cannot import kubernetes: in CI (CI=true) the file fails with one line saying what to
 * install (.ci/run installs it); as root with apt-get, the package is installed before the tests; otherwise the
 * tests are skipped with one line saying why.
 */
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { repoPath } from './kapi-process.js';
import { killOnWorkerExit } from './worker-exit.js';

export const python = '/usr/bin/python3';
const scenarios = repoPath('tests/e2e/python/client_scenarios.py');
const missing = `${python} cannot import kubernetes: install Debian's python3-kubernetes (apt-get install python3-kubernetes)`;
const installTimeoutMs = 10 * 60_000;
/** A scenario still running after this long is killed (its watches end by themselves well before). */
const scenarioKillAfterMs = 90_000;

function canImportClient(): boolean {
  return spawnSync(python, ['-I', '-c', 'import kubernetes'], { stdio: 'ignore', timeout: 60_000 }).status === 0;
}

function canInstall(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

/** Runs `command`, resolving on exit 0 and rejecting with its output otherwise. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

/** Registers the file's tests (`register`) when the Python client can be used or installed; see above otherwise. */
export function pythonClientTests(register: () => void): void {
  if (canImportClient()) return register();
  if (process.env.CI === 'true') {
    test('the Python client is installed', (t) => t.fail(missing));
    return;
  }
  if (!canInstall()) {
    test.skip(`Python client tests: ${missing} (this run is not root with apt-get)`, () => {});
    return;
  }
  test.serial.before(async (t) => {
    t.timeout(installTimeoutMs, 'installing python3-kubernetes');
    await run('apt-get', ['update', '-q']);
    await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'python3-kubernetes']);
    if (!canImportClient()) throw new Error(`python3-kubernetes was installed, yet ${missing}`);
  });
  register();
}

/**
 * Runs one scenario of tests/e2e/python/client_scenarios.py with `kubeconfig` and returns the JSON it printed;
 * rejects with the script's output when it fails.
 */
export function runPythonScenario(kubeconfig: string, scenario: string, namespace: string, arg?: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-I', scenarios, kubeconfig, scenario, namespace, ...(arg === undefined ? [] : [arg])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    killOnWorkerExit(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[python-client: killed after ${scenarioKillAfterMs / 1000}s]\n`;
      child.kill('SIGKILL');
    }, scenarioKillAfterMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const describe = `python scenario ${scenario} exited ${code}\n--- stdout ---\n${stdout}--- stderr ---\n${stderr}`;
      if (code !== 0) return reject(new Error(describe));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(describe));
      }
    });
  });
}

/** A long-running Python script of tests/e2e/python/ whose output a test reads while it runs. */
export interface PythonProcess {
  /** Everything written to stdout so far. */
  stdout(): string;
  /** stdout and stderr so far, for assertion messages. */
  describe(): string;
  /** Sends `signal` (default SIGKILL) and resolves once the process exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `/usr/bin/python3 -I tests/e2e/python/SCRIPT ARGS` (killed when the test worker exits). */
export function spawnPython(script: string, args: string[]): PythonProcess {
  const child = spawn(python, ['-I', repoPath('tests/e2e/python', script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnWorkerExit(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      stderr += `\n[spawn error: ${err.message}]`;
      resolve();
    });
    child.once('close', () => resolve());
  });
  return {
    stdout: () => stdout,
    describe: () => `python ${script} ${args.join(' ')}\n--- stdout ---\n${stdout}--- stderr ---\n${stderr}`,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
