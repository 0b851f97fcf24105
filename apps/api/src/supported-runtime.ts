/** The Node lines the project is tested on (package.json `engines`, docs/operations.md). */
export const SUPPORTED_NODE_MAJORS: readonly number[] = [24, 26];

/**
 * Why this Node cannot run the server, or undefined. Older lines lack what the service relies
 * on (a JSON reviver's source text for exact ids, N-API 10 for better-sqlite3 13); a bare
 * `node apps/api/dist/main.js` with the machine's own Node is the usual way to meet one.
 */
export function unsupportedRuntime(version = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= SUPPORTED_NODE_MAJORS[0]!) return undefined;
  return `Node ${version} cannot run Plant Store: it needs Node ${SUPPORTED_NODE_MAJORS.join(' or ')}. Start it with \`pnpm start\`, or with the project's own Node: node_modules/.bin/node apps/api/dist/main.js`;
}
