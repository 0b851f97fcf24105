// `pnpm bench` driver (run after `pnpm build`). See bench/README.md.
//
// For each target (the real production server, then the bare baseline in
// bench/baseline-server.mjs): start it on a fresh database on a free 127.0.0.1 port, pinned to
// CPU 0; for each connection count: warm up, then drive POST /plants with autocannon
// (bench/load.mjs, pinned to CPU 1) for BENCH_DURATION_S while sampling the server's RSS;
// count the rows written and compare with the 2xx responses. Print one markdown table and
// the project ÷ baseline ratios. Children, temp dirs and PostgreSQL databases made here are
// always removed, also on failure, Ctrl-C or the overall time limit.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const persistenceRequire = createRequire(join(ROOT, 'packages/adapters-persistence/package.json'));

// ---------------------------------------------------------------- configuration
function envNumber(name, fallback, min, max) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    console.error(`bench: ${name} must be a number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return value;
}

const DURATION_S = envNumber('BENCH_DURATION_S', 10, 1, 600);
const WARMUP_S = envNumber('BENCH_WARMUP_S', 2, 0, 120);
const TIMEOUT_S = envNumber('BENCH_TIMEOUT_S', 10, 1, 60);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS || '16,128').split(',').map((c) => {
  const n = Number(c.trim());
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    console.error(`bench: BENCH_CONNECTIONS must be a comma list of integers (got ${JSON.stringify(process.env.BENCH_CONNECTIONS)})`);
    process.exit(2);
  }
  return n;
});
const ONLY = process.env.BENCH_ONLY || ''; // '' | 'project' | 'baseline'
if (!['', 'project', 'baseline'].includes(ONLY)) {
  console.error('bench: BENCH_ONLY must be project or baseline');
  process.exit(2);
}
// Extra node flags for the project server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS || '').split(/\s+/).filter(Boolean);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'warn';
const DATABASE_URL = process.env.DATABASE_URL || '';
const POSTGRES = /^postgres(ql)?:\/\//i.test(DATABASE_URL);
if (DATABASE_URL && !POSTGRES) {
  console.error('bench: DATABASE_URL selects PostgreSQL (postgres://…); leave it unset for SQLite on a temp file.');
  process.exit(2);
}

const HAS_TASKSET = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
const CPUS = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const PIN = HAS_TASKSET && CPUS >= 2 && process.env.BENCH_PIN !== '0';
const SERVER_CPU = '0';
const LOAD_CPU = '1';

// Overall bound: every phase is bounded; this catches anything that is not.
const targetsCount = ONLY ? 1 : 2;
const OVERALL_LIMIT_MS =
  (targetsCount * (CONNECTIONS.length * (WARMUP_S + DURATION_S + 2 * TIMEOUT_S + 30) + 120) + 60) * 1000;

// ---------------------------------------------------------------- cleanup
const children = new Set();
const tempDirs = new Set();
const pgDatabases = new Set();
let cleaningUp = null;

function track(child, label) {
  if (cleaningUp) {
    // Cleanup has started (signal or time limit): nothing new may outlive it.
    child.kill('SIGKILL');
    throw new Error('bench is shutting down');
  }
  children.add(child);
  child.label = label;
  child.exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  child.exited.then(() => children.delete(child));
  return child;
}

async function stopChild(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return child.exited;
  try {
    child.kill('SIGTERM');
  } catch {}
  const timer = setTimeout(() => {
    try {
      child.kill('SIGKILL');
    } catch {}
  }, graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

async function cleanup() {
  if (cleaningUp) return cleaningUp;
  cleaningUp = (async () => {
    await Promise.all([...children].map((child) => stopChild(child)));
    for (const name of pgDatabases) {
      try {
        await withPgClient(DATABASE_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
        pgDatabases.delete(name);
      } catch (error) {
        console.error(`bench: could not drop database ${name}: ${error.message}`);
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  })();
  return cleaningUp;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\nbench: ${signal}, cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}
const overallTimer = setTimeout(() => {
  console.error(`bench: overall time limit (${Math.round(OVERALL_LIMIT_MS / 1000)} s) reached, cleaning up`);
  cleanup().finally(() => process.exit(1));
}, OVERALL_LIMIT_MS);

// ---------------------------------------------------------------- helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function pinned(cpu, command, args) {
  return PIN ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
}

function tail(path, lines = 20) {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function httpGet(port, path, timeoutMs = 1000) {
  return new Promise((resolveGet) => {
    const req = http.get({ host: '127.0.0.1', port, path, timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolveGet(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolveGet(null));
  });
}

async function withPgClient(url, fn) {
  const pg = persistenceRequire('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, query_timeout: 60_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function databaseUrlWithName(url, name) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function createPgDatabase(suffix) {
  const name = `plantstore_bench_${randomBytes(4).toString('hex')}${suffix}`;
  await withPgClient(DATABASE_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  pgDatabases.add(name);
  return databaseUrlWithName(DATABASE_URL, name);
}

/** Rows in the plant table, read by a separate connection (committed rows only). */
async function countRows(target) {
  if (target.pgUrl) {
    return withPgClient(target.pgUrl, async (client) => Number((await client.query('SELECT count(*) AS n FROM plant')).rows[0].n));
  }
  const Database = persistenceRequire('better-sqlite3');
  const db = new Database(target.sqlitePath, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    return Number(db.prepare('SELECT count(*) AS n FROM plant').get().n);
  } finally {
    db.close();
  }
}

/** Waits until the row count stops moving (requests cut off at the end of a run may still commit). */
async function settledRowCount(target) {
  let last = await countRows(target);
  for (let stable = 0, i = 0; stable < 2 && i < 25; i++) {
    await sleep(200);
    const now = await countRows(target);
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
  return last;
}

function rssKb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function startRssSampler(pid) {
  let peak = rssKb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssKb(pid));
  };
}

/** Calibration: how many durable single-row commits per second the disk takes right now. */
function rawCommitRate(dir, seconds = 1) {
  const Database = persistenceRequire('better-sqlite3');
  const path = join(dir, 'calibration.sqlite');
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < seconds * 1000) insert.run(n++, 'x');
    return Math.round(n / ((performance.now() - start) / 1000));
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }
}

// Unique ids across all runs: a random 48-bit base per bench invocation, then 2^32 ids per run.
// Everything stays below 2^53, so ids are exact whatever JSON parser reads them.
const ID_BASE = BigInt(`0x${randomBytes(6).toString('hex')}`) & ((1n << 48n) - 1n);
let runIndex = 0;

async function runLoad(port, token, connections, durationS, tmp) {
  const idBase = ID_BASE + BigInt(runIndex++) * (1n << 32n);
  const config = { url: `http://127.0.0.1:${port}`, connections, durationS, timeoutS: TIMEOUT_S, idBase: String(idBase) };
  const [command, args] = pinned(LOAD_CPU, process.execPath, [join(ROOT, 'bench/load.mjs'), JSON.stringify(config)]);
  const errPath = join(tmp, `load-${runIndex}.err`);
  const errFd = openSync(errPath, 'w');
  let stdout = '';
  const child = track(spawn(command, args, { cwd: ROOT, env: { ...process.env, BENCH_LOAD_TOKEN: token }, stdio: ['ignore', 'pipe', errFd] }), 'load');
  closeSync(errFd);
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const limit = setTimeout(() => stopChild(child, 2000), (durationS + 2 * TIMEOUT_S + 20) * 1000);
  const { code, signal } = await child.exited;
  clearTimeout(limit);
  const line = stdout.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`load generator failed (${signal ?? code}): ${tail(errPath)}`);
  return JSON.parse(line);
}

async function createToken(databaseUrl) {
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(process.execPath, [join(ROOT, 'apps/cli/dist/main.js'), 'token', 'create', '--name', 'bench', '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const line = (result.stdout || '').trim().split('\n').pop();
    try {
      const token = JSON.parse(line).token;
      if (typeof token === 'string' && token) return token;
    } catch {}
    if (attempt >= 3) {
      throw new Error(`token create failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout || '').trim().slice(-2000)}`);
    }
    await sleep(2000);
  }
}

async function startServer(target, tmp) {
  const port = await freePort();
  const logPath = join(tmp, `${target.name}.log`);
  const logFd = openSync(logPath, 'w');
  const [command, args] = pinned(SERVER_CPU, process.execPath, [...target.nodeArgs, target.script]);
  const child = track(
    spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...target.env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', logFd, logFd],
    }),
    target.name,
  );
  closeSync(logFd);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${target.name} server exited during start-up (${child.signalCode ?? child.exitCode}):\n${tail(logPath)}`);
    }
    const status = await httpGet(port, '/healthz');
    if (status !== null) break; // it answers HTTP: listening, migrations applied
    if (Date.now() > deadline) throw new Error(`${target.name} server did not answer within 60 s:\n${tail(logPath)}`);
    await sleep(100);
  }
  return { child, port, logPath };
}

// ---------------------------------------------------------------- one target
async function benchTarget(target, tmp) {
  const rows = [];
  let server;
  try {
    server = await startServer(target, tmp);
    if (target.name === 'project') {
      target.token = await createToken(target.env.DATABASE_URL);
    }
    const pid = server.child.pid;
    await sleep(500);
    target.idleRssMb = rssKb(pid) / 1024; // started, migrated, one token created: before any load
    for (const connections of CONNECTIONS) {
      if (cleaningUp) break;
      const row = { target: target.name, connections };
      rows.push(row);
      try {
        if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`${target.name} server has exited:\n${tail(server.logPath)}`);
        process.stderr.write(`bench: ${target.name} @ ${connections} conns: warm-up ${WARMUP_S} s, run ${DURATION_S} s\n`);
        if (WARMUP_S > 0) await runLoad(server.port, target.token, connections, WARMUP_S, tmp);
        const before = await settledRowCount(target);
        const stopRss = startRssSampler(pid);
        let load;
        try {
          load = await runLoad(server.port, target.token, connections, DURATION_S, tmp);
        } finally {
          row.peakRssMb = stopRss() / 1024;
        }
        const after = await settledRowCount(target);
        Object.assign(row, load, { newRows: after - before });
      } catch (error) {
        row.failed = error.message;
      }
    }
  } catch (error) {
    if (rows.length === 0) for (const connections of CONNECTIONS) rows.push({ target: target.name, connections, failed: error.message });
    else for (const row of rows) row.failed ??= error.message;
  } finally {
    if (server) {
      const { code, signal } = await stopChild(server.child);
      if (code !== 0) process.stderr.write(`bench: ${target.name} server did not exit 0 on SIGTERM (${signal ?? `exit ${code}`})\n${tail(server.logPath, 10)}\n`);
      else if (target.name === 'project' && rows.some((r) => !r.failed)) {
        const log = tail(server.logPath, 5);
        if (log) process.stderr.write(`bench: last lines of the ${target.name} server log:\n${log}\n`);
      }
    }
  }
  return rows;
}

// ---------------------------------------------------------------- report
const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n) ? '—' : Number(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function durabilityCheck(row) {
  if (row.failed) return 'not checked (run failed)';
  const extra = row.newRows - row.ok2xx;
  if (extra === 0) return `OK: ${fmt(row.ok2xx)} 2xx = ${fmt(row.newRows)} new rows`;
  if (extra > 0 && extra <= row.connections) {
    return `OK: ${fmt(row.ok2xx)} 2xx, ${fmt(row.newRows)} new rows (+${extra} committed for requests cut off when the run stopped, ≤ ${row.connections} conns)`;
  }
  return `MISMATCH: ${fmt(row.ok2xx)} 2xx but ${fmt(row.newRows)} new rows`;
}

function report(rows, environment) {
  const out = [];
  out.push('');
  out.push(`## Plant Store bench — ${environment.engine}`);
  out.push('');
  for (const line of environment.lines) out.push(`- ${line}`);
  out.push('');
  out.push('| server | conns | req/s | p50 ms | p99 ms | p99.9 ms | non-2xx | errors (timeouts) | server peak RSS MB |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    if (row.failed) {
      out.push(`| ${row.target} | ${row.connections} | failed | | | | | | ${row.peakRssMb ? fmt(row.peakRssMb, 1) : ''} |`);
      continue;
    }
    out.push(
      `| ${row.target} | ${row.connections} | ${fmt(row.reqPerSec)} | ${fmt(row.latencyMs.p50)} | ${fmt(row.latencyMs.p99)} | ${fmt(row.latencyMs.p99_9)} | ${fmt(row.non2xx)} | ${fmt(row.errors)} (${fmt(row.timeouts)}) | ${fmt(row.peakRssMb, 1)} |`,
    );
  }
  out.push('');
  for (const connections of CONNECTIONS) {
    const project = rows.find((r) => r.target === 'project' && r.connections === connections && !r.failed);
    const baseline = rows.find((r) => r.target === 'baseline' && r.connections === connections && !r.failed);
    if (project && baseline && baseline.reqPerSec > 0) {
      out.push(`- project ÷ baseline req/s at ${connections} connections: **${(project.reqPerSec / baseline.reqPerSec).toFixed(2)} ×**`);
    } else if (!ONLY) {
      out.push(`- project ÷ baseline req/s at ${connections} connections: n/a`);
    }
  }
  const idle = environment.targets.filter((t) => t.idleRssMb !== undefined).map((t) => `${t.name} ${fmt(t.idleRssMb, 1)} MB`);
  if (idle.length) out.push(`- server RSS at rest after start-up (before the first warm-up): ${idle.join(', ')}`);
  out.push('');
  out.push('Durable-200 check (rows added to `plant` during the measured run vs 2xx responses):');
  for (const row of rows) out.push(`- ${row.target} @ ${row.connections}: ${durabilityCheck(row)}`);
  const odd = rows.filter((r) => !r.failed && (r.non2xx > 0 || r.errors > 0));
  for (const row of odd) out.push(`- ${row.target} @ ${row.connections} status codes: ${JSON.stringify(row.statusCodes)}, resets ${row.resets}`);
  const failed = rows.filter((r) => r.failed);
  if (failed.length) {
    out.push('');
    out.push('Failures:');
    for (const row of failed) out.push(`- ${row.target} @ ${row.connections}: ${row.failed.split('\n').join('\n  ')}`);
  }
  out.push('');
  console.log(out.join('\n'));
}

// ---------------------------------------------------------------- main
async function main() {
  if (PIN) spawnSync('taskset', ['-a', '-p', '-c', LOAD_CPU, String(process.pid)], { stdio: 'ignore' }); // keep the driver off the server's core
  const tmp = mkdtempSync(join(os.tmpdir(), 'plantstore-bench-'));
  tempDirs.add(tmp);

  const environment = { engine: POSTGRES ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL, temp file)', lines: [] };
  const cpuModel = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  environment.lines.push(`${new Date().toISOString()}, node ${process.version}, ${CPUS} CPUs (${cpuModel}), ${os.platform()} ${os.release()}`);
  environment.lines.push(`load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine skews the figures)`);
  environment.lines.push(
    PIN
      ? `server pinned to CPU ${SERVER_CPU}, load generator (autocannon, 1 process) to CPU ${LOAD_CPU} with taskset`
      : `no pinning (${HAS_TASKSET ? `${CPUS} CPU(s)` : 'taskset not found'}${process.env.BENCH_PIN === '0' ? ', BENCH_PIN=0' : ''})`,
  );
  environment.lines.push(
    `POST /plants, unique int64 ids, pipelining 1, warm-up ${WARMUP_S} s then ${DURATION_S} s per row, request timeout ${TIMEOUT_S} s; project LOG_LEVEL=${LOG_LEVEL}${SERVER_NODE_ARGS.length ? `, node ${SERVER_NODE_ARGS.join(' ')}` : ''}`,
  );

  const project = { name: 'project', script: join(ROOT, 'apps/api/dist/main.js'), nodeArgs: SERVER_NODE_ARGS, env: { LOG_LEVEL } };
  const baseline = { name: 'baseline', script: join(ROOT, 'bench/baseline-server.mjs'), nodeArgs: [], env: {} };

  if (POSTGRES) {
    const settings = await withPgClient(DATABASE_URL, async (client) => {
      const get = async (name) => (await client.query(`SELECT current_setting('${name}') AS v`)).rows[0].v;
      return { version: await get('server_version'), synchronous_commit: await get('synchronous_commit'), fsync: await get('fsync') };
    });
    environment.lines.push(
      `PostgreSQL ${settings.version} (synchronous_commit=${settings.synchronous_commit}, fsync=${settings.fsync}), not pinned; a fresh database per server, dropped afterwards; baseline: node-postgres Pool(10)`,
    );
    if (ONLY !== 'baseline') project.pgUrl = await createPgDatabase('');
    if (ONLY !== 'project') baseline.pgUrl = await createPgDatabase('_baseline');
    project.env.DATABASE_URL = project.pgUrl;
    baseline.env.DATABASE_URL = baseline.pgUrl;
  } else {
    project.sqlitePath = join(tmp, 'project.sqlite');
    baseline.sqlitePath = join(tmp, 'baseline.sqlite');
    project.env.DATABASE_URL = `sqlite:${project.sqlitePath}`;
    baseline.env.DATABASE_URL = `sqlite:${baseline.sqlitePath}`;
    environment.lines.push(`SQLite files in ${os.tmpdir()} (fresh per server); baseline: node:http + better-sqlite3, one prepared INSERT (one commit) per request`);
    environment.lines.push(`disk calibration: ${fmt(rawCommitRate(tmp))} single-row durable commits/s (raw better-sqlite3, WAL, synchronous=FULL, 1 s, before the runs)`);
  }

  environment.targets = [project, baseline];
  const rows = [];
  let token = `pst_${randomBytes(32).toString('base64url')}`; // used by the baseline if the project is skipped
  if (ONLY !== 'baseline') {
    rows.push(...(await benchTarget(project, tmp)));
    token = project.token ?? token;
  }
  if (ONLY !== 'project') {
    baseline.token = token;
    baseline.env.BASELINE_TOKEN = token;
    rows.push(...(await benchTarget(baseline, tmp)));
  }
  report(rows, environment);
  return rows.some((r) => r.failed) ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`bench: ${error.stack || error.message}`);
} finally {
  await cleanup();
  clearTimeout(overallTimer);
}
process.exit(exitCode);
