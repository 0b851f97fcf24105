import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The one PostgreSQL helper of the repository: fresh databases, and connections of their own,
 * for the test suites (through postgres-databases.ts) and the benches. Plain JavaScript, so
 * that node runs it as it is.
 */

/**
 * @typedef {object} FreshPostgresDatabase
 * @property {string} url a URL for the new database: same host, user and password as the admin URL
 * @property {string} name
 * @property {() => Promise<void>} drop removes it, ending the sessions still open on it
 */

/**
 * A new, empty database named `prefix` and random hex, on the server of `adminUrl`. `settings`
 * become the database's own defaults (`ALTER DATABASE … SET name = value`).
 *
 * @param {string} adminUrl
 * @param {string} prefix
 * @param {{ settings?: Record<string, string> }} [options]
 * @returns {Promise<FreshPostgresDatabase>}
 */
export async function createPostgresDatabase(adminUrl, prefix, { settings = {} } = {}) {
  const name = prefix + randomBytes(6).toString('hex');
  await asAdmin(adminUrl, [`CREATE DATABASE ${name}`]);
  // FORCE ends the sessions of servers a failed run left behind, so the drop cannot hang.
  const drop = () => asAdmin(adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
  const alterations = Object.entries(settings).map(
    ([setting, value]) => `ALTER DATABASE ${name} SET ${setting} = ${value}`,
  );
  if (alterations.length > 0)
    await asAdmin(adminUrl, alterations).catch((error) => drop().then(() => Promise.reject(error)));
  return { url: databaseUrl(adminUrl, name), name, drop };
}

/**
 * The admin URL with another database name (same host, user and password).
 *
 * @param {string} adminUrl
 * @param {string} database
 * @returns {string}
 */
export function databaseUrl(adminUrl, database) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A connection of its own to `url`, outside any app's pool: another client of the database.
 *
 * @param {string} url
 * @param {{ queryTimeoutMs?: number }} [options]
 * @returns {Promise<pg.Client>}
 */
export async function connectPostgres(url, { queryTimeoutMs } = {}) {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    ...(queryTimeoutMs === undefined ? {} : { query_timeout: queryTimeoutMs }),
  });
  // An idle client whose server goes away emits 'error'; unhandled, it would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * `use` on a connection of its own to `url`, closed afterwards.
 *
 * @template T
 * @param {string} url
 * @param {(client: pg.Client) => Promise<T>} use
 * @param {{ queryTimeoutMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function withPostgres(url, use, options) {
  const client = await connectPostgres(url, options);
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `statements` in order on a connection to `adminUrl`; a failure names the statement
 * (the first, when the server cannot be reached) and the server, without its password.
 *
 * @param {string} adminUrl
 * @param {string[]} statements
 * @returns {Promise<void>}
 */
async function asAdmin(adminUrl, statements) {
  let current = 0;
  try {
    await withPostgres(adminUrl, async (client) => {
      for (; current < statements.length; current++) await client.query(statements[current] ?? '');
    });
  } catch (error) {
    throw new Error(`"${statements[current]}" failed on ${withoutPassword(adminUrl)}: ${String(error)}`, {
      cause: error,
    });
  }
}

/**
 * The URL fit for a log.
 *
 * @param {string} url
 * @returns {string}
 */
function withoutPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable URL)';
  }
}
