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
      name: 'modules-meet-through-model-or-service',
      severity: 'error',
      comment:
        'A module reaches another through its <feature>.model.ts or its <feature>.service.ts only: every other file of a module (repository, schemas, rules, answers) is its own.',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', '^src/modules/([^/]+)/\\1\\.(model|service)\\.ts$'] },
    },
    {
      name: 'services-come-in-deps',
      severity: 'error',
      comment: "Another module's service comes in Deps from app.ts: a module imports only its types.",
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/modules/([^/]+)/\\1\\.service\\.ts$',
        pathNot: '^src/modules/$1/',
        dependencyTypesNot: ['type-only'],
      },
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
