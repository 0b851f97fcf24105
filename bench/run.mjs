// `pnpm bench` driver (run after `pnpm build`). See bench/README.md.
//
// Three servers, each on its own fresh database on a free 127.0.0.1 port, pinned to CPU 0: the
// real production server and the two bare baselines of bench/baseline-server.mjs (commit per
// request, group commit). For each connection count, BENCH_REPEAT rounds, each round running
// every server in turn (interleaved, so drift on the machine hits all of them alike): warm up,
// then drive POST /plants with autocannon (bench/load.mjs, pinned to CPU 1) for
// BENCH_DURATION_S while sampling the server's RSS and reading its CPU time; count the rows
// written and compare with the 2xx responses. Print one markdown table of medians
// (bench/report.mjs) and the project ÷ baseline ratios, and save it under bench/results/. Children, temp dirs and PostgreSQL
// databases made here are always removed, also on failure, Ctrl-C or the overall time limit.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '../test-support/free-port.mjs';
import { createPostgresDatabase, withPostgres } from '../test-support/postgres.mjs';
import { cpuPartsReport, readProfile } from './cpu-parts-report.mjs';
import { measureReads, readReport } from './read-scenario.mjs';
import { fmt, report } from './report.mjs';
import { writeResult } from './results.mjs';

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
    console.error(
      `bench: BENCH_CONNECTIONS must be a comma list of integers (got ${JSON.stringify(process.env.BENCH_CONNECTIONS)})`,
    );
    process.exit(2);
  }
  return n;
});
const REPEAT = envNumber('BENCH_REPEAT', 3, 1, 20);
// The read scenario (bench/read-scenario.mjs) on the project server; 0 leaves it out.
const READ_CONNECTIONS = envNumber('BENCH_READ_CONNECTIONS', 128, 0, 10_000);
// Which servers run: a comma list of project, request, group; `baseline` means both bare ones.
const ONLY = new Set(
  (process.env.BENCH_ONLY || 'project,baseline')
    .split(',')
    .map((name) => name.trim())
    .flatMap((name) => (name === 'baseline' ? ['request', 'group'] : [name])),
);
if (ONLY.size === 0 || [...ONLY].some((name) => !['project', 'request', 'group', 'floor', 'quiet'].includes(name))) {
  console.error(
    'bench: BENCH_ONLY must be a comma list of project, request, group, baseline (= request,group), floor, quiet',
  );
  process.exit(2);
}
// Another checkout of this repository, built: its server runs as one more target ("before"),
// interleaved with this one, to measure a change before and after in one run.
const COMPARE_ROOT = process.env.BENCH_COMPARE_ROOT ? resolve(process.env.BENCH_COMPARE_ROOT) : '';
if (COMPARE_ROOT) {
  if (!existsSync(join(COMPARE_ROOT, 'apps/api/dist/main.js'))) {
    console.error(
      `bench: BENCH_COMPARE_ROOT must be a built checkout (no ${join(COMPARE_ROOT, 'apps/api/dist/main.js')})`,
    );
    process.exit(2);
  }
  ONLY.add('before');
}
// The Node that runs the "before" server (default: this one), to measure a change of runtime.
const COMPARE_NODE = process.env.BENCH_COMPARE_NODE ? resolve(process.env.BENCH_COMPARE_NODE) : process.execPath;
// CPU-only mode: SQLite files on tmpfs; on PostgreSQL, commits that do not wait for the WAL flush.
const TMPFS = process.env.BENCH_TMPFS === '1';
const TMPFS_DIR = '/dev/shm';
// Extra node flags for the project server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS || '').split(/\s+/).filter(Boolean);
// CPU profiles of the project and the floor, and where their CPU goes part by part (cpu-parts.mjs).
const PROFILE = process.env.BENCH_PROFILE === '1';
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'warn';
const DATABASE_URL = process.env.DATABASE_URL || '';
// The PlantCreated relay runs only when asked for: a NATS_URL left in the shell must not switch it on.
const NATS_URL = process.env.BENCH_NATS_URL || '';
const POSTGRES = /^postgres(ql)?:\/\//i.test(DATABASE_URL);
if (DATABASE_URL && !POSTGRES) {
  console.error('bench: DATABASE_URL selects PostgreSQL (postgres://…); leave it unset for SQLite on a temp file.');
  process.exit(2);
}

const HAS_TASKSET = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
const CPUS = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const SERVER_MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX || '2';
const PIN = HAS_TASKSET && CPUS >= 2 && process.env.BENCH_PIN !== '0';
const SERVER_CPU = '0';
const LOAD_CPU = '1';

// Overall bound: every phase is bounded; this catches anything that is not.
const OVERALL_LIMIT_MS =
  (ONLY.size * (REPEAT * CONNECTIONS.length * (WARMUP_S + DURATION_S + 2 * TIMEOUT_S + 30) + 120) + 60) * 1000;

// ---------------------------------------------------------------- cleanup
const children = new Set();
const tempDirs = new Set();
/** The PostgreSQL databases made for this run, each with its drop. */
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
  } catch {
    // Already gone: the exit is awaited below either way.
  }
  const timer = setTimeout(() => {
    try {
      child.kill('SIGKILL');
    } catch {
      // Exited during the grace period.
    }
  }, graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

async function cleanup() {
  if (cleaningUp) return cleaningUp;
  cleaningUp = (async () => {
    await Promise.all([...children].map((child) => stopChild(child)));
    for (const database of pgDatabases) {
      try {
        await database.drop();
        pgDatabases.delete(database);
      } catch (error) {
        console.error(`bench: could not drop database ${database.name}: ${error.message}`);
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

/** `fn` on a connection of its own, whose queries give up after a minute. */
const withPgClient = (url, fn) => withPostgres(url, fn, { queryTimeoutMs: 60_000 });

async function createPgDatabase(server) {
  const database = await createPostgresDatabase(DATABASE_URL, `plantstore_bench_${server}_`, {
    // The WAL lives in the cluster's own directory, so no tablespace moves the commit's flush off
    // the disk; not waiting for it is what leaves CPU alone, for this database only.
    settings: TMPFS ? { synchronous_commit: 'off' } : {},
  });
  pgDatabases.add(database);
  return database.url;
}

/** Rows in `table` (plant, or the outbox), read by a separate connection (committed rows only). */
async function countRows(target, table = 'plant') {
  if (target.storesNothing) return 0;
  const sql = `SELECT count(*) AS n FROM ${table}`;
  if (target.pgUrl) return withPgClient(target.pgUrl, async (client) => Number((await client.query(sql)).rows[0].n));
  const Database = persistenceRequire('better-sqlite3');
  const db = new Database(target.sqlitePath, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    return Number(db.prepare(sql).get().n);
  } finally {
    db.close();
  }
}

/** Up to `limit` stored plant ids as decimal text (read by a separate connection). */
async function storedIds(target, limit) {
  const sql = `SELECT CAST(id AS TEXT) AS id FROM plant ORDER BY id LIMIT ${Number(limit)}`;
  if (target.pgUrl)
    return withPgClient(target.pgUrl, async (client) => (await client.query(sql)).rows.map((r) => r.id));
  const Database = persistenceRequire('better-sqlite3');
  const db = new Database(target.sqlitePath, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    return db
      .prepare(sql)
      .all()
      .map((r) => r.id);
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

/** RSS and its file-backed part (mapped files, mostly the node binary's pages), in kB; zeros if unreadable. */
function rssKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
    return { total: field('VmRSS'), file: field('RssFile') };
  } catch {
    return { total: 0, file: 0 };
  }
}

const CLOCK_TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU time (user + system, all threads) the process has used so far, in µs; NaN if unreadable. */
function cpuUs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S) * 1e6;
  } catch {
    return Number.NaN;
  }
}

/** The highest RSS seen until stopped, with the file-backed kB of that sample. */
function startRssSampler(pid) {
  let peak = rssKb(pid);
  const sample = () => {
    const now = rssKb(pid);
    if (now.total > peak.total) peak = now;
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
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

async function runLoad(port, token, connections, durationS, tmp, read = undefined) {
  const idBase = ID_BASE + BigInt(runIndex++) * (1n << 32n);
  const config = {
    url: `http://127.0.0.1:${port}`,
    connections,
    durationS,
    timeoutS: TIMEOUT_S,
    idBase: String(idBase),
    ...(read ? { read } : {}),
  };
  const [command, args] = pinned(LOAD_CPU, process.execPath, [join(ROOT, 'bench/load.mjs'), JSON.stringify(config)]);
  const errPath = join(tmp, `load-${runIndex}.err`);
  const errFd = openSync(errPath, 'w');
  let stdout = '';
  const child = track(
    spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, BENCH_LOAD_TOKEN: token },
      stdio: ['ignore', 'pipe', errFd],
    }),
    'load',
  );
  closeSync(errFd);
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const limit = setTimeout(() => stopChild(child, 2000), (durationS + 2 * TIMEOUT_S + 20) * 1000);
  const { code, signal } = await child.exited;
  clearTimeout(limit);
  const line = stdout.trim().split('\n').pop();
  if (code !== 0 || !line) throw new Error(`load generator failed (${signal ?? code}): ${tail(errPath)}`);
  return JSON.parse(line);
}

async function createToken(databaseUrl, root = ROOT, node = process.execPath) {
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(
      node,
      [join(root, 'apps/cli/dist/main.js'), 'token', 'create', '--name', 'bench', '--json'],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    const line = (result.stdout || '').trim().split('\n').pop();
    try {
      const token = JSON.parse(line).token;
      if (typeof token === 'string' && token) return token;
    } catch {
      // Not the JSON line yet: retried below.
    }
    if (attempt >= 3) {
      throw new Error(
        `token create failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout || '').trim().slice(-2000)}`,
      );
    }
    await sleep(2000);
  }
}

async function startServer(target, tmp) {
  const port = await freePort();
  const logPath = join(tmp, `${target.name}.log`);
  const logFd = openSync(logPath, 'w');
  const [command, args] = pinned(SERVER_CPU, target.node ?? process.execPath, [...target.nodeArgs, target.script]);
  const startedAt = Date.now();
  const child = track(
    spawn(command, args, {
      cwd: ROOT,
      // Every server with the container image's malloc setting (docs/operations.md#memory), unless the shell sets one.
      env: {
        MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
        ...process.env,
        ...target.env,
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', logFd, logFd],
    }),
    target.name,
  );
  closeSync(logFd);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${target.name} server exited during start-up (${child.signalCode ?? child.exitCode}):\n${tail(logPath)}`,
      );
    }
    const status = await httpGet(port, '/healthz');
    if (status !== null) break; // it answers HTTP: listening, migrations applied
    if (Date.now() > deadline) throw new Error(`${target.name} server did not answer within 60 s:\n${tail(logPath)}`);
    await sleep(100);
  }
  return { child, port, logPath, startedAt };
}

/** Milliseconds since the server started: where a run falls in its CPU profile. */
const sinceStart = (target) => Date.now() - target.server.startedAt;

// ---------------------------------------------------------------- servers and runs
async function startTarget(target, tmp) {
  target.server = await startServer(target, tmp);
  if (target.root) target.token = await createToken(target.env.DATABASE_URL, target.root, target.node);
  await sleep(500);
  target.idleRssMb = rssKb(target.server.child.pid).total / 1024; // started, migrated, token ready: before any load
}

/** One warm-up and one measured run of `target` at `connections`; the figures of the measured one. */
async function measure(target, connections, round) {
  const run = { target: target.name, connections, round };
  const { child, port, logPath } = target.server;
  try {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${target.name} server has exited:\n${tail(logPath)}`);
    process.stderr.write(
      `bench: round ${round}/${REPEAT}, ${target.label} @ ${connections} conns: warm-up ${WARMUP_S} s, run ${DURATION_S} s\n`,
    );
    if (WARMUP_S > 0) await runLoad(port, target.token, connections, WARMUP_S, target.tmp);
    const before = await settledRowCount(target);
    const stopRss = startRssSampler(child.pid);
    const cpuBefore = cpuUs(child.pid);
    const from = sinceStart(target);
    let load;
    try {
      load = await runLoad(port, target.token, connections, DURATION_S, target.tmp);
    } finally {
      run.cpuUs = cpuUs(child.pid) - cpuBefore;
      run.window = [from, sinceStart(target)];
      const peakRss = stopRss();
      run.peakRssMb = peakRss.total / 1024;
      run.peakRssFileMb = peakRss.file / 1024;
    }
    // Events the relay had not published yet when the load stopped: whether it keeps up.
    if (target.relays) run.outboxBacklog = await countRows(target, 'plant_outbox');
    const after = await settledRowCount(target);
    Object.assign(run, load, { newRows: target.storesNothing ? Number.NaN : after - before });
  } catch (error) {
    run.failed = error.message;
  }
  return run;
}

async function stopTarget(target, anyMeasured) {
  if (!target.server) return;
  const { child, logPath } = target.server;
  const { code, signal } = await stopChild(child);
  if (code !== 0)
    process.stderr.write(
      `bench: ${target.name} server did not exit 0 on SIGTERM (${signal ?? `exit ${code}`})\n${tail(logPath, 10)}\n`,
    );
  else if (target.root && anyMeasured) {
    const log = tail(logPath, 5);
    if (log) process.stderr.write(`bench: last lines of the ${target.name} server log:\n${log}\n`);
  }
}

// ---------------------------------------------------------------- main
function describeMachine(environment) {
  const cpuModel = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  environment.lines.push(
    `${new Date().toISOString()}, node ${process.version}, ${CPUS} CPUs (${cpuModel}), ${os.platform()} ${os.release()}`,
  );
  environment.lines.push(`load average at start ${loadAverage()} (other work on the machine skews the figures)`);
  environment.lines.push(
    PIN
      ? `servers pinned to CPU ${SERVER_CPU}, load generator (autocannon, 1 process) to CPU ${LOAD_CPU} with taskset`
      : `no pinning (${HAS_TASKSET ? `${CPUS} CPU(s)` : 'taskset not found'}${process.env.BENCH_PIN === '0' ? ', BENCH_PIN=0' : ''})`,
  );
  environment.lines.push(
    `POST /plants, unique int64 ids, pipelining 1; per run a ${WARMUP_S} s warm-up then ${DURATION_S} s measured; ${REPEAT} interleaved round(s) per connection count, medians shown; request timeout ${TIMEOUT_S} s; project LOG_LEVEL=${LOG_LEVEL}${SERVER_NODE_ARGS.length ? `, node ${SERVER_NODE_ARGS.join(' ')}` : ''}; servers MALLOC_ARENA_MAX=${SERVER_MALLOC_ARENA_MAX}`,
  );
  environment.lines.push(
    NATS_URL
      ? `project: PlantCreated relay on, publishing to ${NATS_URL} (BENCH_NATS_URL)`
      : 'project: PlantCreated relay off, so events are off and the outbox stays empty (set BENCH_NATS_URL to publish them)',
  );
  if (COMPARE_ROOT)
    environment.lines.push(`project before: ${describeCheckout(COMPARE_ROOT)}, on node ${nodeVersion(COMPARE_NODE)}`);
}

/** The commit a checkout is at (and whether it has changes), so a before/after report says what "before" was. */
function describeCheckout(root) {
  const git = (...args) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git('rev-parse', '--short', 'HEAD');
  if (commit === '') return root;
  return `${root} at ${commit}${git('status', '--porcelain') === '' ? '' : ' with uncommitted changes'}`;
}

function nodeVersion(node) {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() || node;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  if (PIN) spawnSync('taskset', ['-a', '-p', '-c', LOAD_CPU, String(process.pid)], { stdio: 'ignore' }); // keep the driver off the server's core
  if (TMPFS && !POSTGRES && !existsSync(TMPFS_DIR)) {
    console.error(`bench: BENCH_TMPFS=1 needs ${TMPFS_DIR} (a tmpfs)`);
    return 2;
  }
  const tmp = mkdtempSync(join(TMPFS && !POSTGRES ? TMPFS_DIR : os.tmpdir(), 'plantstore-bench-'));
  tempDirs.add(tmp);

  const engine = POSTGRES
    ? `PostgreSQL${TMPFS ? ' (BENCH_TMPFS=1: synchronous_commit=off, CPU only)' : ''}`
    : `SQLite (WAL, synchronous=FULL, ${TMPFS ? `files on tmpfs ${TMPFS_DIR}, CPU only` : 'temp file on disk'})`;
  const environment = { engine, lines: [] };
  describeMachine(environment);

  const baselineScript = join(ROOT, 'bench/baseline-server.mjs');
  const targets = [
    {
      name: 'project',
      label: 'project',
      root: ROOT,
      script: join(ROOT, 'apps/api/dist/main.js'),
      nodeArgs: SERVER_NODE_ARGS,
      env: { LOG_LEVEL, NATS_URL },
      relays: Boolean(NATS_URL),
    },
    {
      name: 'before',
      label: 'project before (BENCH_COMPARE_ROOT)',
      root: COMPARE_ROOT,
      node: COMPARE_NODE,
      script: join(COMPARE_ROOT, 'apps/api/dist/main.js'),
      nodeArgs: SERVER_NODE_ARGS,
      env: { LOG_LEVEL, NATS_URL },
    },
    {
      // Only when asked for (BENCH_ONLY=…,quiet): the project with its relay off, beside one
      // publishing to BENCH_NATS_URL, for what the relay costs per create.
      name: 'quiet',
      label: 'project, relay off',
      root: ROOT,
      script: join(ROOT, 'apps/api/dist/main.js'),
      nodeArgs: SERVER_NODE_ARGS,
      env: { LOG_LEVEL, NATS_URL: '' },
    },
    {
      name: 'request',
      label: 'bare, commit per request',
      script: baselineScript,
      nodeArgs: [],
      env: { BASELINE_COMMIT: 'request' },
    },
    {
      name: 'group',
      label: 'bare, group commit',
      script: baselineScript,
      nodeArgs: [],
      env: { BASELINE_COMMIT: 'group' },
    },
    {
      // Only when asked for (BENCH_ONLY=…,floor): the mandated stack alone, storing nothing.
      name: 'floor',
      label: 'stack floor, stores nothing',
      script: join(ROOT, 'bench/stack-floor-server.mjs'),
      nodeArgs: [],
      env: {},
      storesNothing: true,
    },
  ].filter((target) => ONLY.has(target.name));
  for (const target of targets) {
    target.tmp = tmp;
    if (PROFILE && ['project', 'floor', 'quiet'].includes(target.name)) {
      target.profileDir = join(tmp, `profile-${target.name}`);
      target.nodeArgs = [...target.nodeArgs, '--cpu-prof', `--cpu-prof-dir=${target.profileDir}`];
    }
  }

  if (POSTGRES) {
    const settings = await withPgClient(DATABASE_URL, async (client) => {
      const get = async (name) => (await client.query(`SELECT current_setting('${name}') AS v`)).rows[0].v;
      return {
        version: await get('server_version'),
        synchronous_commit: await get('synchronous_commit'),
        fsync: await get('fsync'),
      };
    });
    environment.lines.push(
      `PostgreSQL ${settings.version} (server: synchronous_commit=${settings.synchronous_commit}, fsync=${settings.fsync}${TMPFS ? '; bench databases: synchronous_commit=off' : ''}), not pinned, its CPU not counted; a fresh database per server, dropped afterwards; bare servers: node-postgres Pool(10)`,
    );
    for (const target of targets) {
      target.pgUrl = await createPgDatabase(target.name);
      target.env.DATABASE_URL = target.pgUrl;
    }
  } else {
    for (const target of targets) {
      target.sqlitePath = join(tmp, `${target.name}.sqlite`);
      target.env.DATABASE_URL = `sqlite:${target.sqlitePath}`;
    }
    environment.lines.push(
      `SQLite files in ${dirname(tmp)} (fresh per server); bare servers: node:http + better-sqlite3, one prepared INSERT per request, committed alone (per request) or in one transaction per event-loop turn (group)`,
    );
    environment.lines.push(
      `${TMPFS ? 'tmpfs' : 'disk'} calibration: ${fmt(rawCommitRate(tmp))} single-row durable commits/s (raw better-sqlite3, WAL, synchronous=FULL, 1 s, before the runs)`,
    );
  }

  const runs = [];
  let reads;
  try {
    // The project first: its CLI makes the token the bare servers then register.
    let token = `pst_${randomBytes(32).toString('base64url')}`;
    for (const target of targets) {
      if (!target.root) {
        target.token = token;
        target.env.BASELINE_TOKEN = token;
      }
      await startTarget(target, tmp);
      token = target.token;
    }
    for (const connections of CONNECTIONS)
      for (let round = 1; round <= REPEAT; round++)
        for (const target of targets) {
          if (cleaningUp) break;
          runs.push(await measure(target, connections, round));
        }
    const project = targets.find((target) => target.name === 'project');
    if (project && READ_CONNECTIONS > 0 && !cleaningUp) reads = await measureProjectReads(project);
    if (NATS_URL && ONLY.has('quiet') && !cleaningUp) environment.relayFloor = measureRelayFloor(tmp);
  } catch (error) {
    runs.push({ target: 'setup', connections: 0, round: 0, failed: error.message });
  } finally {
    for (const target of targets)
      await stopTarget(
        target,
        runs.some((r) => r.target === target.name && !r.failed),
      );
  }
  environment.lines.push(`load average at end ${loadAverage()}`);
  const profiles = Object.fromEntries(
    targets.filter((target) => target.profileDir).map((target) => [target.name, readProfile(target.profileDir)]),
  );
  const markdown = [
    report({ runs, targets, connectionCounts: CONNECTIONS, environment }),
    ...(reads
      ? [
          readReport(
            reads,
            runs.filter((r) => r.target === 'floor'),
          ),
        ]
      : []),
    ...(PROFILE ? [cpuPartsReport({ profiles, runs, reads, connectionCounts: CONNECTIONS })] : []),
  ].join('\n');
  console.log(markdown);
  if (runs.some((r) => r.failed) || reads?.runs.some((r) => r.failed)) return 1;
  // Only a complete run is kept: bench/results/<date>-<machine>[-variant].md.
  const variant = [POSTGRES ? 'postgres' : '', TMPFS ? 'tmpfs' : '', PROFILE ? 'profile' : '']
    .filter(Boolean)
    .join('-');
  console.log(`saved to ${writeResult('pnpm bench', markdown, variant)}`);
  return 0;
}

/**
 * The relay's floor, on the servers' CPU: the JetStream client alone (bench/relay-floor.mjs)
 * and, on SQLite, the outbox's own cost in the store (bench/outbox-cost.mjs).
 */
function measureRelayFloor(tmp) {
  const client = runFloorScript('relay-floor.mjs', [NATS_URL]);
  const outbox = POSTGRES ? undefined : runFloorScript('outbox-cost.mjs', [dirname(tmp)]);
  return {
    clientUs: client?.cpuUsPerEvent ?? Number.NaN,
    triggerUs: outbox?.triggerUsPerPlant ?? Number.NaN,
    relayUs: outbox?.relayUsPerEvent ?? Number.NaN,
  };
}

/** Runs bench/<script> pinned to the servers' CPU; its last line of output, parsed. */
function runFloorScript(script, args) {
  process.stderr.write(`bench: ${script}\n`);
  const [command, commandArgs] = pinned(SERVER_CPU, process.execPath, [join(ROOT, 'bench', script), ...args]);
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: 300_000 });
  try {
    return JSON.parse(result.stdout.trim().split('\n').at(-1));
  } catch {
    process.stderr.write(`bench: ${script} failed: ${result.stderr || result.error?.message}\n`);
    return undefined;
  }
}

/** The read scenario on the project server, still running after the create runs. */
function measureProjectReads(project) {
  const { child, port } = project.server;
  return measureReads({
    connections: READ_CONNECTIONS,
    rounds: REPEAT,
    warmupS: WARMUP_S,
    durationS: DURATION_S,
    log: (line) => process.stderr.write(line),
    io: {
      storedIds: (limit) => storedIds(project, limit),
      seed: () => runLoad(port, project.token, 16, 2, project.tmp),
      load: ({ connections, durationS, read }) =>
        runLoad(port, project.token, connections, durationS, project.tmp, read),
      cpuUs: () => cpuUs(child.pid),
      sinceStart: () => sinceStart(project),
    },
  });
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
