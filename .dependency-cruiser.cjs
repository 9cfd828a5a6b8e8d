// The structure `npm run lint` holds the code to (docs/architecture.md explains each rule).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-module',
      severity: 'error',
      comment: 'src/platform is the base every module builds on; it never reaches into a module.',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules/|app\\.ts$|compose\\.ts$|services\\.ts$|main\\.ts$|cli/)' },
    },
    {
      name: 'modules-never-import-the-root',
      severity: 'error',
      comment: "Modules get their dependencies as their factory's deps from the composition root.",
      from: { path: '^src/modules/' },
      to: { path: '^src/(app|compose|services|main)\\.ts$' },
    },
    {
      name: 'module-through-its-index',
      severity: 'error',
      comment:
        "A module reaches another only through its public entries: index.ts, and migrations/index.ts for the " +
        'helpers other modules\' data migrations read.',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/migrations/index\\.ts$'],
      },
    },
    {
      name: 'text-is-a-leaf',
      severity: 'error',
      comment: 'src/modules/text (tokens, normalisation, extraction, sentiment, categories) imports no other module.',
      from: { path: '^src/modules/text/' },
      to: { path: '^src/(modules/(?!text/)|app\\.ts$|compose\\.ts$|services\\.ts$|main\\.ts$|cli/)' },
    },
    {
      name: 'sql-only-in-stores',
      severity: 'error',
      comment:
        "Kysely's sql templates and query helpers are written in stores, table files and migrations only " +
        "(scripts/lint-structure.ts checks the builder calls); platform's own persistence keeps its SQL in its files.",
      from: {
        path: '^src/(modules|cli)/',
        pathNot: ['(^|/)store\\.ts$', '(^|/)tables\\.ts$', '/stores?/', '/migrations/'],
      },
      to: { path: '^node_modules/kysely/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs', '.json'] },
  },
};
