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

/**
 * adapters-http's OpenAPI document path: the code that builds the document served at
 * /openapi.json, and the only code that imports @nestjs/swagger for its values (11 MB private
 * memory, 400+ modules). Nothing else imports it: the server loads it on the document's first
 * request, through the one dynamic import of create-http-app.ts (docs/decisions.md, "The
 * OpenAPI document is built on first request"). A file of openapi/ that imports swagger is
 * listed here; the rest of openapi/ (the store, the controllers, the docs page) serves requests.
 */
const HTTP_SRC = '^packages/adapters-http/src/';
const OPENAPI_DOCUMENT_PATH = [
  // each controller's describer, and the fragments the plant routes share (plants/plant.openapi.ts)
  `${HTTP_SRC}.+\\.openapi\\.ts$`,
  // the builder, which applies every describer then builds the document
  `${HTTP_SRC}openapi-document-builder\\.ts$`,
  `${HTTP_SRC}openapi/(api-responses|api-schemas|describe-controller|openapi-document)\\.ts$`,
];

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
      name: 'swagger-on-the-document-path-only',
      comment:
        "@nestjs/swagger's values are imported only by adapters-http's document path (OPENAPI_DOCUMENT_PATH): a controller is described in its *.openapi.ts, never decorated with @Api… itself. `import type` is erased and allowed anywhere.",
      severity: 'error',
      from: { path: '^(packages|apps)/[^/]+/src/', pathNot: OPENAPI_DOCUMENT_PATH },
      to: { path: '(^|/)node_modules/@nestjs/swagger/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-http-document-path-loaded-on-request',
      comment:
        'Nothing that serves requests imports the document path (OPENAPI_DOCUMENT_PATH), which loads @nestjs/swagger: only the dynamic import that create-http-app.ts hands OpenApiDocumentStore. A describer imports its controller, never the other way round.',
      severity: 'error',
      from: { path: HTTP_SRC, pathNot: OPENAPI_DOCUMENT_PATH },
      to: { path: OPENAPI_DOCUMENT_PATH, dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'adapters-http-document-path-loaded-on-request',
      comment:
        "The document path's one way in is create-http-app.ts's dynamic import of openapi-document-builder.ts, the store's loader.",
      severity: 'error',
      from: { path: HTTP_SRC, pathNot: OPENAPI_DOCUMENT_PATH },
      to: {
        path: OPENAPI_DOCUMENT_PATH,
        dependencyTypes: ['dynamic-import'],
        pathNot: `${HTTP_SRC}openapi-document-builder\\.ts$`,
      },
    },
    {
      name: 'adapters-http-document-path-loaded-on-request',
      comment:
        "The document path's one way in is create-http-app.ts's dynamic import of openapi-document-builder.ts, the store's loader.",
      severity: 'error',
      from: { path: HTTP_SRC, pathNot: [...OPENAPI_DOCUMENT_PATH, `${HTTP_SRC}create-http-app\\.ts$`] },
      to: { path: OPENAPI_DOCUMENT_PATH, dependencyTypes: ['dynamic-import'] },
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
    // npm packages are out of the graph, but for @nestjs/swagger: a leaf there, for swagger-on-the-document-path-only.
    exclude: { path: '^(?!.*(^|/)node_modules/@nestjs/swagger/).*(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
    },
  },
};
