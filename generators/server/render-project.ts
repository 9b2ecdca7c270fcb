import type { ServerModel } from './server-model.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** package.json: kapi and the packages the sources import, the tools of build/start/test, ava's configuration. */
export function renderPackageJson(m: ServerModel): string {
  const d = m.dependencies;
  return json({
    name: m.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.12' },
    scripts: {
      build: 'kapi gen crd src/types.ts -o crds && tsc -p tsconfig.json',
      start: 'npm run build --silent && node dist/src/main.js',
      test: 'npm run build --silent && ava',
    },
    dependencies: { 'better-sqlite3': d['better-sqlite3'], kapi: m.kapi, yaml: d.yaml },
    devDependencies: { '@types/better-sqlite3': d['@types/better-sqlite3'], '@types/node': d['@types/node'], ava: d.ava, typescript: d.typescript },
    ava: { files: ['dist/test/**/*.test.js'], timeout: '60s', workerThreads: false },
  });
}

export function renderTsconfig(): string {
  return json({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      types: ['node'],
      rootDir: '.',
      outDir: 'dist',
      skipLibCheck: true,
    },
    include: ['src', 'test'],
  });
}

export function renderGitignore(): string {
  return ['node_modules/', 'dist/', '# generated from src/types.ts by npm run build', 'crds/', '# the objects', 'data/', '# the CA and serving certificate with their keys', 'pki/', ''].join('\n');
}
