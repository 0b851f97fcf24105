/**
 * The hexagon's dependency rule, enforced by `pnpm lint` (and so by `pnpm test`):
 * arrows point inward only.
 */
module.exports = {
  forbidden: [
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
