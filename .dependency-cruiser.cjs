/**
 * The hexagon's dependency rule, enforced by `pnpm lint` (and so by `pnpm test`):
 * arrows point inward only.
 */
/**
 * The floors of a package's src/, ground first: a folder imports its own files and the folders
 * of the floors below it, never a folder beside it or above it. The files at the top of src/
 * (a module, the index) stand above every floor. Every folder of src/ has its floor.
 */
const FLOORS = {
  'adapters-http': [
    ['errors', 'ports', 'logging', 'context'],
    ['http', 'limits'],
    ['auth', 'body'],
    ['openapi'],
    ['health', 'plants', 'observability', 'web'],
    ['pipeline'],
  ],
  'adapters-persistence': [
    ['config'],
    ['schema', 'migrations'],
    ['connection'],
    ['plants', 'tokens', 'events'],
    ['store'],
    ['nest'],
  ],
};

function floorRules(pkg, floors) {
  const src = `^packages/${pkg}/src/`;
  const offTheFloors = `${src}(?!(${floors.flat().join('|')})/)[^/]+/`;
  const comment = `Every folder of ${pkg}/src has its floor in FLOORS (.dependency-cruiser.cjs).`;
  return [
    ...floors.flat().map((folder) => {
      const floor = floors.findIndex((folders) => folders.includes(folder));
      const below = floors.slice(0, floor).flat();
      return {
        name: `${pkg}-floors`,
        comment: `${pkg}/src/${folder}/ (floor ${floor}) imports only itself and the floors below it: ${below.join(', ') || 'none'}.`,
        severity: 'error',
        from: { path: `${src}${folder}/` },
        to: { path: src, pathNot: `${src}(${[folder, ...below].join('|')})/` },
      };
    }),
    { name: `${pkg}-folder-on-a-floor`, comment, severity: 'error', from: { path: offTheFloors }, to: {} },
    { name: `${pkg}-folder-on-a-floor`, comment, severity: 'error', from: {}, to: { path: offTheFloors } },
  ];
}

module.exports = {
  forbidden: [
    ...Object.entries(FLOORS).flatMap(([pkg, floors]) => floorRules(pkg, floors)),
    {
      name: 'adapters-http-routes-stand-alone',
      comment:
        'A route folder of adapters-http/src/plants/ (create/, get/, …) imports the shared files of plants/ and the floors below, never another route folder: a route is added or removed as one folder (packages/adapters-http/README.md).',
      severity: 'error',
      from: { path: '^packages/adapters-http/src/plants/([^/]+)/' },
      to: { path: '^packages/adapters-http/src/plants/[^/]+/', pathNot: '^packages/adapters-http/src/plants/$1/' },
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
