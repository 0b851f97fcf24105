/**
 * The hexagon's dependency rule, enforced by `pnpm lint` (and so by `pnpm test`):
 * arrows point inward only.
 */
/**
 * The floors of packages/adapters-http/src, ground first: a folder imports its own files and
 * the folders of the floors below it, never a folder beside it or above it. The files at the
 * top of src/ (the module, configureHttp, the index) stand above every floor.
 */
const ADAPTERS_HTTP_FLOORS = [
  ['errors', 'ports', 'logging', 'context'],
  ['http', 'limits'],
  ['auth', 'body'],
  ['openapi'],
  ['health', 'plants', 'observability', 'web'],
  ['pipeline'],
];
const HTTP_SRC = '^packages/adapters-http/src/';

// A file in a folder of src/ that ADAPTERS_HTTP_FLOORS does not list.
const HTTP_SRC_OFF_THE_FLOORS = `${HTTP_SRC}(?!(${ADAPTERS_HTTP_FLOORS.flat().join('|')})/)[^/]+/`;

const adaptersHttpFloorRules = ADAPTERS_HTTP_FLOORS.flat().map((folder) => {
  const floor = ADAPTERS_HTTP_FLOORS.findIndex((folders) => folders.includes(folder));
  const below = ADAPTERS_HTTP_FLOORS.slice(0, floor).flat();
  return {
    name: 'adapters-http-floors',
    comment: `adapters-http/src/${folder}/ (floor ${floor}) imports only itself and the floors below it: ${below.join(', ') || 'none'}.`,
    severity: 'error',
    from: { path: `${HTTP_SRC}${folder}/` },
    to: { path: HTTP_SRC, pathNot: `${HTTP_SRC}(${[folder, ...below].join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    ...adaptersHttpFloorRules,
    {
      name: 'adapters-http-folder-on-a-floor',
      comment: 'Every folder of adapters-http/src has its floor in ADAPTERS_HTTP_FLOORS (.dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: HTTP_SRC_OFF_THE_FLOORS },
      to: {},
    },
    {
      name: 'adapters-http-folder-on-a-floor',
      comment: 'Every folder of adapters-http/src has its floor in ADAPTERS_HTTP_FLOORS (.dependency-cruiser.cjs).',
      severity: 'error',
      from: {},
      to: { path: HTTP_SRC_OFF_THE_FLOORS },
    },
    {
      name: 'domain-is-pure',
      comment: 'packages/domain imports nothing outside itself: no framework, no driver, no Node built-in.',
      severity: 'error',
      from: { path: '^packages/domain/src' },
      to: { pathNot: '^packages/domain/src' },
    },
    {
      name: 'json-reader-is-a-library',
      comment:
        'packages/json-reader imports only itself and the domain: never an adapter, an app, a framework or a library. Adapters and apps may import it.',
      severity: 'error',
      from: { path: '^packages/json-reader/src' },
      to: { pathNot: ['^packages/json-reader/src', '^packages/domain/'] },
    },
    {
      name: 'adapters-do-not-import-each-other',
      comment: 'An adapter depends on the domain only; the apps compose adapters.',
      severity: 'error',
      from: { path: '^packages/(adapters-[^/]+)/' },
      to: { path: '^packages/adapters-[^/]+/', pathNot: '^packages/$1/' },
    },
    {
      name: 'client-stands-alone',
      comment: 'The API client is for other apps and browsers: it depends on no package of the server.',
      severity: 'error',
      from: { path: '^packages/client/src' },
      to: { path: '^(packages|apps)/', pathNot: '^packages/client/' },
    },
    {
      name: 'examples-use-public-packages-only',
      comment:
        "An example is another team's app: it may use @plantstore/domain and npm packages, never an adapter, an app or the client internals.",
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(packages|apps)/', pathNot: '^packages/domain/' },
    },
    {
      name: 'packages-do-not-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-do-not-import-each-other',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/[^/]+/', pathNot: '^apps/$1/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that cannot be resolved is usually a package the importer does not declare.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Built output is a leaf, not excluded: an import of another workspace package resolves into its dist/.
    doNotFollow: { path: '(^|/)(dist|node_modules)/' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
    },
  },
};
