// What `pnpm bench` prints and saves: a header on the machine, the settings and the databases;
// the creates table (report.mjs); the reads (read-scenario.mjs); where the CPU goes
// (cpu-parts-report.mjs, BENCH_PROFILE=1). A complete run is saved under bench/results/.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { dirname } from 'node:path';
import { changeReport } from './change-report.mjs';
import { cpuPartsReport, readProfile } from './cpu-parts-report.mjs';
import { postgresSettings, rawCommitRate } from './databases.mjs';
import { nameSearchReport } from './name-search.mjs';
import { readReport } from './read-scenario.mjs';
import { rssReport } from './rss-report.mjs';
import { fmt, report } from './report.mjs';
import { writeResult } from './results.mjs';
import {
  COMPARE_NODE,
  COMPARE_ROOT,
  CONNECTIONS,
  CPUS,
  DURATION_S,
  HAS_TASKSET,
  LOAD_CPU,
  LOG_LEVEL,
  NATS_URL,
  PIN,
  POSTGRES,
  PROFILE,
  REPEAT,
  SERVER_CPU,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_NODE,
  SERVER_NODE_ARGS,
  TIMEOUT_S,
  TMPFS,
  TMPFS_DIR,
  WARMUP_S,
} from './settings.mjs';

/** The report's header so far: the engine, the machine, the settings, the relay, what "before" is. */
export function describeRun() {
  const engine = POSTGRES
    ? `PostgreSQL${TMPFS ? ' (BENCH_TMPFS=1: synchronous_commit=off, CPU only)' : ''}`
    : `SQLite (WAL, synchronous=FULL, ${TMPFS ? `files on tmpfs ${TMPFS_DIR}, CPU only` : 'temp file on disk'})`;
  const lines = [];
  const cpuModel = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  lines.push(
    `${new Date().toISOString()}, node ${process.version}, ${CPUS} CPUs (${cpuModel}), ${os.platform()} ${os.release()}`,
  );
  lines.push(`load average at start ${loadAverage()} (other work on the machine skews the figures)`);
  lines.push(
    PIN
      ? `servers pinned to CPU ${SERVER_CPU}, load generator (autocannon, 1 process) to CPU ${LOAD_CPU} with taskset`
      : `no pinning (${HAS_TASKSET ? `${CPUS} CPU(s)` : 'taskset not found'}${process.env.BENCH_PIN === '0' ? ', BENCH_PIN=0' : ''})`,
  );
  lines.push(
    `POST /plants, unique int64 ids, pipelining 1; per run a ${WARMUP_S} s warm-up then ${DURATION_S} s measured; ${REPEAT} interleaved round(s) per connection count, medians shown; request timeout ${TIMEOUT_S} s; project LOG_LEVEL=${LOG_LEVEL}${SERVER_NODE_ARGS.length ? `, node ${SERVER_NODE_ARGS.join(' ')}` : ''}; bare servers MALLOC_ARENA_MAX=${SERVER_MALLOC_ARENA_MAX}, the project's as they set it (below)`,
  );
  lines.push(
    NATS_URL
      ? `project: PlantCreated relay on, publishing to ${NATS_URL} (BENCH_NATS_URL)`
      : 'project: PlantCreated relay off, so events are off and the outbox stays empty (set BENCH_NATS_URL to publish them)',
  );
  lines.push(
    `project on node ${nodeVersion(SERVER_NODE)}${SERVER_NODE === process.execPath ? '' : ' (BENCH_SERVER_NODE)'}`,
  );
  if (COMPARE_ROOT)
    lines.push(`project before: ${describeCheckout(COMPARE_ROOT)}, on node ${nodeVersion(COMPARE_NODE)}`);
  else if (COMPARE_NODE !== process.execPath)
    lines.push(`project on BENCH_COMPARE_NODE: node ${nodeVersion(COMPARE_NODE)}`);
  return { engine, lines };
}

/** The databases' lines of the header: PostgreSQL's settings, or where the SQLite files are and what the disk commits. */
export async function describeDatabases(environment, tmp) {
  if (POSTGRES) {
    const settings = await postgresSettings();
    environment.lines.push(
      `PostgreSQL ${settings.version} (server: synchronous_commit=${settings.synchronous_commit}, fsync=${settings.fsync}${TMPFS ? '; bench databases: synchronous_commit=off' : ''}), not pinned, its CPU not counted; a fresh database per server, dropped afterwards; bare servers: node-postgres Pool(10)`,
    );
    return;
  }
  environment.lines.push(
    `SQLite files in ${dirname(tmp)} (fresh per server); bare servers: node:http + better-sqlite3, one prepared INSERT per request, committed alone (per request) or in one transaction per event-loop turn (group)`,
  );
  environment.lines.push(
    `${TMPFS ? 'tmpfs' : 'disk'} calibration: ${fmt(rawCommitRate(tmp))} single-row durable commits/s (raw better-sqlite3, WAL, synchronous=FULL, 1 s, before the runs)`,
  );
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

/**
 * Prints the report and, when nothing failed, saves it as bench/results/<date>-<machine>[-variant].md;
 * the run's exit code.
 */
export function printAndSave({ runs, reads, changes, search, targets, environment }) {
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
    ...(changes
      ? [
          changeReport(
            changes,
            runs.filter((r) => r.target === 'project'),
          ),
        ]
      : []),
    ...(search ? [nameSearchReport(search)] : []),
    rssReport({ targets, runs, changes }),
    ...(PROFILE ? [cpuPartsReport({ profiles, runs, reads, connectionCounts: CONNECTIONS })] : []),
  ].join('\n');
  console.log(markdown);
  if (runs.some((r) => r.failed) || reads?.runs.some((r) => r.failed) || changes?.runs.some((r) => r.failed)) return 1;
  // Only a complete run is kept: bench/results/<date>-<machine>[-variant].md.
  const variant = [POSTGRES ? 'postgres' : '', TMPFS ? 'tmpfs' : '', PROFILE ? 'profile' : '']
    .filter(Boolean)
    .join('-');
  console.log(`saved to ${writeResult('pnpm bench', markdown, variant)}`);
  return 0;
}
