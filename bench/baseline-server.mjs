// The bare BASELINES of `pnpm bench`: the same POST /plants contract as the project server on
// the benchmark's path, with nothing but node:http and the database driver. BASELINE_COMMIT
// picks how creates are committed:
//
// - `request` (default): each create is its own commit.
//   SQLite (DATABASE_URL=sqlite:<path>): better-sqlite3, WAL, synchronous=FULL, foreign_keys=ON
//   (as TypeORM sets it), ONE prepared INSERT per request, so one WAL fsync per request.
//   PostgreSQL (DATABASE_URL=postgres://…): node-postgres Pool of 10, one autocommitted INSERT
//   per request (a named prepared statement).
// - `group`: the creates whose bodies were read in the same event-loop turn are committed
//   together, and each is answered only after that commit. SQLite: one transaction per turn
//   (setImmediate), one prepared INSERT … ON CONFLICT DO NOTHING per create inside it.
//   PostgreSQL: one multi-row INSERT (unnest of arrays, autocommitted) per turn on the same
//   Pool of 10; creates that arrive while all 10 connections are busy join the next one.
//
// Same table shape as the project's migration (plant: id 64-bit primary key, name, tag,
// created_by_token_id → api_token, created_at), same token check (SHA-256 of the bearer token
// looked up in a Map loaded at start from api_token; scope plants:write), same 200 body
// {"name","tag"}. Validation is minimal (JSON.parse, types and lengths); ids are assumed to be
// below 2^53, which the bench guarantees. Not a product: a yardstick.
//
// For `pnpm bench:overload`: GET /healthz answers 200, and with BASELINE_MAX_IN_FLIGHT set,
// requests beyond that many in progress get 503/50301 with Retry-After and Connection: close
// before their body is read, as the project does with MAX_REQUESTS_IN_FLIGHT.
//
// Env: HOST, PORT, DATABASE_URL, BASELINE_COMMIT (request | group), BASELINE_TOKEN (a plain
// token to register at start), BASELINE_MAX_IN_FLIGHT.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { groupCommit } from './group-commit.mjs';

const require = createRequire(new URL('../packages/adapters-persistence/package.json', import.meta.url));

const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT || 3000);
const DATABASE_URL = process.env.DATABASE_URL || '';
const BODY_LIMIT = 64 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const COMMIT = process.env.BASELINE_COMMIT || 'request';
if (COMMIT !== 'request' && COMMIT !== 'group') throw new Error('baseline: BASELINE_COMMIT must be request or group');

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** token hash → { id, scopes } */
const tokens = new Map();

const store = /^postgres(ql)?:\/\//i.test(DATABASE_URL) ? await openPostgres(DATABASE_URL) : openSqlite(DATABASE_URL);

async function openPostgres(url) {
  const pg = require('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(`CREATE TABLE IF NOT EXISTS api_token (
    id varchar(64) PRIMARY KEY, name varchar(400) NOT NULL, token_hash varchar(64) NOT NULL UNIQUE,
    scopes varchar(200) NOT NULL, created_at timestamptz NOT NULL, expires_at timestamptz NULL,
    revoked_at timestamptz NULL)`);
  await pool.query(`CREATE TABLE IF NOT EXISTS plant (
    id bigint PRIMARY KEY, name text NOT NULL, tag text NULL,
    created_by_token_id varchar(64) NULL REFERENCES api_token (id), created_at timestamptz NOT NULL)`);
  if (process.env.BASELINE_TOKEN) {
    await pool.query(
      `INSERT INTO api_token (id, name, token_hash, scopes, created_at) VALUES ($1, 'baseline', $2, 'plants:write', now())
       ON CONFLICT (token_hash) DO NOTHING`,
      [randomUUID(), sha256(process.env.BASELINE_TOKEN)],
    );
  }
  const { rows } = await pool.query('SELECT id, token_hash, scopes FROM api_token WHERE revoked_at IS NULL');
  for (const row of rows) tokens.set(row.token_hash, { id: row.id, scopes: row.scopes.split(',') });
  const close = () => pool.end();
  if (COMMIT === 'group') {
    const insertMany = {
      name: 'baseline_insert_plants',
      text: `INSERT INTO plant (id, name, tag, created_by_token_id, created_at)
        SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::varchar[], $5::timestamptz[])
        ON CONFLICT (id) DO NOTHING RETURNING id`,
    };
    const flush = async (batch) => {
      const now = new Date();
      const { rows } = await pool.query({
        ...insertMany,
        values: [
          batch.map((p) => String(p.id)),
          batch.map((p) => p.name),
          batch.map((p) => p.tag),
          batch.map((p) => p.tokenId),
          batch.map(() => now),
        ],
      });
      // A repeated id inside one batch is inserted once: the first of them is the created one.
      const inserted = new Set(rows.map((row) => String(row.id)));
      return batch.map((p) => (inserted.delete(String(p.id)) ? 'created' : 'conflict'));
    };
    return { insert: groupCommit(flush, 10), close };
  }
  const insert = {
    name: 'baseline_insert_plant',
    text: 'INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES ($1, $2, $3, $4, $5)',
  };
  return {
    async insert({ id, name, tag, tokenId }) {
      try {
        await pool.query({ ...insert, values: [String(id), name, tag, tokenId, new Date()] });
        return 'created';
      } catch (error) {
        if (error && error.code === '23505') return 'conflict';
        throw error;
      }
    },
    close,
  };
}

function openSqlite(url) {
  const Database = require('better-sqlite3');
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  if (!path) throw new Error('baseline: DATABASE_URL must be sqlite:<path> or postgres://…');
  const db = new Database(path, { timeout: 5000 });
  db.pragma('foreign_keys = ON');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS api_token (
    id varchar(64) PRIMARY KEY, name varchar(400) NOT NULL, token_hash varchar(64) NOT NULL UNIQUE,
    scopes varchar(200) NOT NULL, created_at text NOT NULL, expires_at text NULL, revoked_at text NULL)`);
  db.exec(`CREATE TABLE IF NOT EXISTS plant (
    id INTEGER PRIMARY KEY, name text NOT NULL, tag text NULL,
    created_by_token_id varchar(64) NULL REFERENCES api_token (id), created_at text NOT NULL)`);
  if (process.env.BASELINE_TOKEN) {
    db.prepare(
      `INSERT INTO api_token (id, name, token_hash, scopes, created_at) VALUES (?, 'baseline', ?, 'plants:write', ?)
       ON CONFLICT (token_hash) DO NOTHING`,
    ).run(randomUUID(), sha256(process.env.BASELINE_TOKEN), new Date().toISOString());
  }
  for (const row of db.prepare('SELECT id, token_hash, scopes FROM api_token WHERE revoked_at IS NULL').all()) {
    tokens.set(row.token_hash, { id: row.id, scopes: row.scopes.split(',') });
  }
  const close = () => db.close();
  if (COMMIT === 'group') {
    const insertOrSkip = db.prepare(
      'INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
    // better-sqlite3's transaction(): BEGIN, the statements, COMMIT (the WAL fsync), or ROLLBACK on a throw.
    const writeBatch = db.transaction((batch) => {
      const now = new Date().toISOString();
      return batch.map((p) =>
        insertOrSkip.run(BigInt(p.id), p.name, p.tag, p.tokenId, now).changes === 1 ? 'created' : 'conflict',
      );
    });
    return { insert: groupCommit(async (batch) => writeBatch(batch), 1), close };
  }
  const insert = db.prepare(
    'INSERT INTO plant (id, name, tag, created_by_token_id, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  return {
    insert({ id, name, tag, tokenId }) {
      try {
        insert.run(BigInt(id), name, tag, tokenId, new Date().toISOString());
        return 'created';
      } catch (error) {
        if (error && typeof error.code === 'string' && error.code.startsWith('SQLITE_CONSTRAINT')) return 'conflict';
        throw error;
      }
    },
    close,
  };
}

function send(res, status, payload, headers = {}) {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const fail = (res, status, error, message, headers) => send(res, status, { error, message }, headers);

function validText(value, max) {
  return typeof value === 'string' && value.length > 0 && value.length <= max && value.trim() !== '';
}

const MAX_IN_FLIGHT = Number(process.env.BASELINE_MAX_IN_FLIGHT || Infinity);
let inFlight = 0;

const server = http.createServer((req, res) => {
  const path = req.url.split('?', 1)[0];
  if (path === '/healthz') return send(res, 200, { status: 'ok' });
  if (inFlight >= MAX_IN_FLIGHT)
    return fail(res, 503, 50301, 'The server is busy; retry shortly.', { 'retry-after': '1', connection: 'close' });
  inFlight++;
  res.once('close', () => inFlight--);
  if (path !== '/plants') return fail(res, 404, 40401, 'No such route.');
  if (req.method !== 'POST') return fail(res, 405, 40501, 'Only POST is allowed on /plants.', { allow: 'POST' });

  const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match)
    return fail(res, 401, 40101, 'A bearer token is required.', { 'www-authenticate': 'Bearer realm="plantstore"' });
  const token = tokens.get(sha256(match[1]));
  if (!token) {
    return fail(res, 401, 40102, 'The token is not valid.', {
      'www-authenticate': 'Bearer realm="plantstore", error="invalid_token"',
    });
  }
  if (!token.scopes.includes('plants:write')) return fail(res, 403, 40301, 'The token lacks plants:write.');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    return fail(res, 415, 41501, 'Send application/json.');

  const chunks = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > BODY_LIMIT) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return fail(res, 413, 41301, 'The body is larger than 64 KiB.');
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return fail(res, 400, 40001, 'The body is not valid JSON.');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return fail(res, 400, 40002, 'The body must be a JSON object.');
    const { id, name, tag } = body;
    if (!Number.isSafeInteger(id) || !validText(name, 200) || !(tag === undefined || validText(tag, 64))) {
      return fail(
        res,
        400,
        40003,
        'id must be an integer, name a string of 1 to 200 characters, tag a string of 1 to 64 characters.',
      );
    }
    Promise.resolve()
      .then(() => store.insert({ id, name, tag: tag ?? null, tokenId: token.id }))
      .then(
        (outcome) =>
          outcome === 'created'
            ? send(res, 200, tag === undefined ? { name } : { name, tag })
            : fail(res, 409, 40901, 'A plant with this id exists.'),
        (error) => {
          process.stderr.write(`baseline: insert failed: ${error && error.message}\n`);
          fail(res, 500, 50001, 'Unexpected failure.');
        },
      );
  });
});

server.keepAliveTimeout = 5000;
// The same accept queue as the project's (MAX_CONNECTIONS, 4096 by default).
server.listen({ port: PORT, host: HOST, backlog: 4096 }, () =>
  process.stdout.write(`baseline (commit per ${COMMIT}) listening on http://${HOST}:${PORT}\n`),
);

let closing = false;
function shutdown() {
  if (closing) return;
  closing = true;
  server.close(async () => {
    await store.close();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
