/**
 * The module graph's rules (docs/ARCHITECTURE.md, "Layers"), checked in CI by `npm run depcheck`.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      severity: 'error',
      comment: 'Feature modules depend on each other one way only: a cycle between folders is refused.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'No cycle between files either, type-only imports included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'lib-is-self-contained',
      severity: 'error',
      comment: 'src/lib holds pure code shared by the service and the console: it imports nothing of the project.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(db|http|modules|seed|cli)/' },
    },
    {
      name: 'db-below-everything',
      severity: 'error',
      comment: 'src/db is the bottom layer: it imports no HTTP code and no module.',
      from: { path: '^src/db/' },
      to: { path: '^src/(http|modules|seed|cli)/' },
    },
    {
      name: 'http-below-modules',
      severity: 'error',
      comment: 'src/http serves every module and imports none of them.',
      from: { path: '^src/http/' },
      to: { path: '^src/(modules|seed|cli)/' },
    },
    {
      name: 'modules-below-entry-points',
      severity: 'error',
      comment: 'Modules do not import the seed, the CLI, the app or the server.',
      from: { path: '^src/modules/' },
      to: { path: '^src/(seed/|cli/|app\\.ts|server\\.ts)' },
    },
    {
      name: 'repositories-are-private',
      severity: 'error',
      comment: 'A module reaches another through its service or model, never its repository.',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/modules/([^/]+)/.*\\.repository\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'request-schemas-are-private',
      severity: 'error',
      comment: "A module's request schemas are its own.",
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/modules/([^/]+)/.*\\.schemas\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'repositories-do-not-use-http',
      severity: 'error',
      comment: 'A repository is SQL: it throws no HTTP error and builds no answer.',
      from: { path: '\\.repository\\.ts$' },
      to: { path: '^src/http/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.test\\.ts$|^test/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
};
