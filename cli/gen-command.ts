import { UsageError } from './usage-error.js';

const genUsage = `Usage: kapi gen <generator> [flags]

Generators:
  crd      CustomResourceDefinitions from TypeScript types with controller-gen markers (kapi gen crd --help)
  proto    a .proto for a CustomResourceDefinition version (kapi gen proto --help)
  server   a new project of an aggregated API server built on kapi (kapi gen server --help)
  types    TypeScript types and typed clients from CustomResourceDefinitions (kapi gen types --help)
`;

/** `kapi gen <generator>`: code generators. Resolves with the exit code. */
export async function gen(args: string[]): Promise<number> {
  const [generator, ...rest] = args;
  switch (generator) {
    case 'crd': {
      const { genCrd } = await import('./gen-crd-command.js');
      return genCrd(rest);
    }
    case 'proto': {
      const { genProto } = await import('./gen-proto-command.js');
      return genProto(rest);
    }
    case 'server':
      return (await import('./gen-server-command.js')).genServer(rest);
    case 'types':
      return (await import('./gen-types-command.js')).genTypes(rest);
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(genUsage);
      return 0;
    case undefined:
      throw new UsageError('missing generator');
    default:
      throw new UsageError(`unknown generator "${generator}"`);
  }
}
