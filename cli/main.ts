import { UsageError } from './usage-error.js';
import { packageVersion } from './package-version.js';

const usage = `Usage: kapi <command> [flags]

Commands:
  serve       run an API server (kapi serve --help lists its flags)
  kubeconfig  issue a client certificate and print a kubeconfig for it (kapi kubeconfig --help)
  gen         generate code from schemas (kapi gen --help lists the generators)

Flags:
  --version  print kapi's version and exit
`;

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'serve': {
      // Loaded on demand: only `serve` needs the server and its plugins.
      const { serve } = await import('./serve-command.js');
      return serve(rest);
    }
    case 'kubeconfig': {
      const { kubeconfig } = await import('./kubeconfig-command.js');
      return kubeconfig(rest);
    }
    case 'gen': {
      const { gen } = await import('./gen-command.js');
      return gen(rest);
    }
    case '--version':
      // As kube's binaries print theirs (`kube-apiserver --version` prints "Kubernetes v1.32.0").
      process.stdout.write(`kapi v${packageVersion()}\n`);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(usage);
      return 0;
    default:
      process.stderr.write((command === undefined ? '' : `kapi: unknown command "${command}"\n\n`) + usage);
      return 2;
  }
}

try {
  process.exit(await run(process.argv.slice(2)));
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`kapi: ${err.message} (see kapi ${process.argv[2]} --help)\n`);
    process.exit(2);
  }
  process.stderr.write(`kapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
