/**
 * `kapi gen server`: a new, self-contained project of an aggregated API server built on kapi — package.json,
 * tsconfig, the kinds as TypeScript with controller-gen's markers, a SQLite RestStorage per kind and a computed
 * resource, an admission plugin stub, the server, its tests, the deploy/ manifests and a README. The files depend on
 * the input only; the certificates are the caller's (their CA is the APIService's caBundle).
 */
import { renderDeploy } from './render-deploy.js';
import { renderGitignore, renderPackageJson, renderTsconfig } from './render-project.js';
import { renderReadme } from './render-readme.js';
import { renderAdmission, renderMain, renderResources } from './render-server.js';
import { renderCrds, renderResourceEvents, renderServerInfo, renderSqliteStorage } from './render-storage.js';
import { renderServerTest } from './render-tests.js';
import { renderTypes } from './render-types.js';
import { serverModel, type GenServerInput } from './server-model.js';

export { GenServerError } from './gen-server-error.js';
export { checkServerInput, type DependencyVersions, type GenServerInput, type ServerNames } from './server-model.js';

export interface GeneratedFile {
  /** Relative to the project's folder. */
  path: string;
  text: string;
}

/** The project's files, in path order; throws GenServerError for a bad name, group, version, kind, address or port. */
export function generateServer(input: GenServerInput): GeneratedFile[] {
  const m = serverModel(input);
  const files: GeneratedFile[] = [
    { path: '.gitignore', text: renderGitignore() },
    { path: 'README.md', text: renderReadme(m) },
    { path: 'package.json', text: renderPackageJson(m) },
    { path: 'tsconfig.json', text: renderTsconfig() },
    { path: 'src/admission.ts', text: renderAdmission(m) },
    { path: 'src/crds.ts', text: renderCrds(m) },
    { path: 'src/main.ts', text: renderMain(m) },
    { path: 'src/resource-events.ts', text: renderResourceEvents() },
    { path: 'src/resources.ts', text: renderResources(m) },
    { path: 'src/server-info.ts', text: renderServerInfo(m) },
    { path: 'src/sqlite-storage.ts', text: renderSqliteStorage() },
    { path: 'src/types.ts', text: renderTypes(m) },
    { path: 'test/server.test.ts', text: renderServerTest(m) },
    ...renderDeploy(m).map((f) => ({ path: `deploy/${f.name}`, text: f.text })),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
