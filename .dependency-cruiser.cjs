/**
 * DESIGN.md's import table, enforced in `npm test` (tests/unit/boundaries.test.ts): each folder imports only the
 * folders its row names (npm packages and Node's built-ins always), and no import cycle exists anywhere.
 */
const npm = 'node_modules/'; // also a symlinked one (git worktrees), resolved outside the repository
const allowed = {
  'lib/': ['lib/'],
  'schemas/': ['schemas/', 'lib/'],
  'core/contracts/': ['core/contracts/', 'schemas/', 'lib/'],
  'core/': ['core/', 'schemas/', 'lib/'],
  'builtin/': ['builtin/', 'core/contracts/', 'schemas/', 'lib/'],
  'admission/': ['admission/', 'builtin/', 'core/contracts/', 'schemas/', 'lib/'],
  'plugins/': ['plugins/', 'core/contracts/', 'lib/'],
  'generators/': ['generators/', 'schemas/', 'lib/'],
  // departure from DESIGN.md: the command also parses its flags with lib/'s Go-compatible parsers (durations)
  'cli/': ['cli/', 'index\\.ts$', 'generators/', 'lib/'],
  'examples/': ['examples/', 'index\\.ts$'],
};
const escape = (p) => p.replace(/\//g, '\\/');
const forbidden = Object.entries(allowed).map(([from, to]) => ({
  name: `${from.replace(/\/$/, '')}-imports`,
  comment: `${from} may import only ${to.join(', ')} (DESIGN.md)`,
  severity: 'error',
  from: {
    path: `^${escape(from)}`,
    // core/contracts/ has its own, narrower row
    ...(from === 'core/' ? { pathNot: '^core\\/contracts\\/' } : {}),
  },
  to: { pathNot: [npm, ...to.map((t) => (t.startsWith('index') ? `^${t}` : `^${escape(t)}`))], dependencyTypesNot: ['core'] },
}));
forbidden.push({ name: 'no-cycles', comment: 'no import cycle anywhere', severity: 'error', from: {}, to: { circular: true } });

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
