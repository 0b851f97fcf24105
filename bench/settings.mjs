// What a `pnpm bench` run is asked for: the BENCH_* variables and DATABASE_URL (bench/README.md,
// "Settings"), read once and checked; a bad value ends the run before anything starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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

export const DURATION_S = envNumber('BENCH_DURATION_S', 10, 1, 600);
export const WARMUP_S = envNumber('BENCH_WARMUP_S', 2, 0, 120);
export const TIMEOUT_S = envNumber('BENCH_TIMEOUT_S', 10, 1, 60);
export const CONNECTIONS = (process.env.BENCH_CONNECTIONS || '16,128').split(',').map((c) => {
  const n = Number(c.trim());
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    console.error(
      `bench: BENCH_CONNECTIONS must be a comma list of integers (got ${JSON.stringify(process.env.BENCH_CONNECTIONS)})`,
    );
    process.exit(2);
  }
  return n;
});
export const REPEAT = envNumber('BENCH_REPEAT', 3, 1, 20);
// The read scenario (bench/read-scenario.mjs) on the project server; 0 leaves it out.
export const READ_CONNECTIONS = envNumber('BENCH_READ_CONNECTIONS', 128, 0, 10_000);
// The other routes on the project after the reads (bench/change-scenario.mjs): a comma list of
// list, put, delete, and search (bench/name-search.mjs: a store of a million plants is imported
// first, so it is asked for, not run by default); `none` leaves them out.
const ROUTE_NAMES = ['list', 'put', 'delete', 'search'];
const DEFAULT_ROUTES = ['list', 'put', 'delete'];
const ASKED_ROUTES = (process.env.BENCH_ROUTES || DEFAULT_ROUTES.join(','))
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== 'none');
if (ASKED_ROUTES.some((name) => !ROUTE_NAMES.includes(name))) {
  console.error('bench: BENCH_ROUTES must be a comma list of list, put, delete, search, or none');
  process.exit(2);
}
export const ROUTES = ASKED_ROUTES.filter((name) => name !== 'search');
export const SEARCH = ASKED_ROUTES.includes('search');
// Which servers run: a comma list of project, start (the project through `pnpm start`),
// request, group; `baseline` means both bare ones.
export const ONLY = new Set(
  (process.env.BENCH_ONLY || 'project,start,baseline')
    .split(',')
    .map((name) => name.trim())
    .flatMap((name) => (name === 'baseline' ? ['request', 'group'] : [name])),
);
if (
  ONLY.size === 0 ||
  [...ONLY].some((name) => !['project', 'start', 'request', 'group', 'floor', 'quiet'].includes(name))
) {
  console.error(
    'bench: BENCH_ONLY must be a comma list of project, start, request, group, baseline (= request,group), floor, quiet',
  );
  process.exit(2);
}
// Another checkout of this repository, built: its server runs as one more target ("before"),
// interleaved with this one, to measure a change before and after in one run.
export const COMPARE_ROOT = process.env.BENCH_COMPARE_ROOT ? resolve(process.env.BENCH_COMPARE_ROOT) : '';
if (COMPARE_ROOT) {
  if (!existsSync(join(COMPARE_ROOT, 'apps/api/dist/main.js'))) {
    console.error(
      `bench: BENCH_COMPARE_ROOT must be a built checkout (no ${join(COMPARE_ROOT, 'apps/api/dist/main.js')})`,
    );
    process.exit(2);
  }
  ONLY.add('before');
}
// The Node that runs the "before" server (default: this one), to measure a change of runtime;
// without BENCH_COMPARE_ROOT, "before" is this checkout on that Node (Node 24 beside 26, say).
export const COMPARE_NODE = process.env.BENCH_COMPARE_NODE ? resolve(process.env.BENCH_COMPARE_NODE) : process.execPath;
if (process.env.BENCH_COMPARE_NODE) ONLY.add('before');
// The Node that runs the project server (default: this one).
export const SERVER_NODE = process.env.BENCH_SERVER_NODE ? resolve(process.env.BENCH_SERVER_NODE) : process.execPath;
for (const [name, node] of [
  ['BENCH_COMPARE_NODE', COMPARE_NODE],
  ['BENCH_SERVER_NODE', SERVER_NODE],
]) {
  if (!existsSync(node)) {
    console.error(`bench: ${name} must be the path of a node binary (no ${node})`);
    process.exit(2);
  }
}
// CPU-only mode: SQLite files on tmpfs; on PostgreSQL, commits that do not wait for the WAL flush.
export const TMPFS = process.env.BENCH_TMPFS === '1';
export const TMPFS_DIR = '/dev/shm';
// Extra node flags for the project server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
export const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS || '').split(/\s+/).filter(Boolean);
// CPU profiles of the project and the floor, and where their CPU goes part by part (cpu-parts.mjs).
export const PROFILE = process.env.BENCH_PROFILE === '1';
export const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'warn';
export const DATABASE_URL = process.env.DATABASE_URL || '';
// The PlantCreated relay runs only when asked for: a NATS_URL left in the shell must not switch it on.
export const NATS_URL = process.env.BENCH_NATS_URL || '';
export const POSTGRES = /^postgres(ql)?:\/\//i.test(DATABASE_URL);
if (DATABASE_URL && !POSTGRES) {
  console.error('bench: DATABASE_URL selects PostgreSQL (postgres://…); leave it unset for SQLite on a temp file.');
  process.exit(2);
}

export const HAS_TASKSET = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
export const CPUS = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
// The bare servers' malloc setting, as the image's; the project's servers get none from the
// bench (only the shell's, if set): they set their own (apps/api/src/process-start-settings.ts).
export const SERVER_MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX || '2';
export const PIN = HAS_TASKSET && CPUS >= 2 && process.env.BENCH_PIN !== '0';
export const SERVER_CPU = '0';
export const LOAD_CPU = '1';

// Overall bound: every phase is bounded; this catches anything that is not.
const PER_RUN_S = WARMUP_S + DURATION_S + 2 * TIMEOUT_S + 30;
export const OVERALL_LIMIT_MS =
  ((ONLY.size + ROUTES.length) * (REPEAT * CONNECTIONS.length * PER_RUN_S + 120) +
    REPEAT * PER_RUN_S +
    360 +
    // The name search's import of a million plants and its pages.
    (SEARCH ? 1200 : 0)) *
  1000;

/** `command args` pinned to `cpu` with taskset when pinning is on: [command, args] for spawn. */
export function pinned(cpu, command, args) {
  return PIN ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
}
