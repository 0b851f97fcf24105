// The load each run applies, and what is read around it. Creates: for each connection count,
// BENCH_REPEAT rounds, each running every server in turn (interleaved, so drift on the machine
// hits all of them alike): a warm-up, then POST /plants by autocannon (load.mjs, pinned to the
// load CPU) with a new unique int64 id per request, while the server's RSS is sampled and its
// CPU time read; then the rows written are counted against the 2xx. Then reads on the project
// (read-scenario.mjs), its list pages, changes and deletes (change-scenario.mjs), and the
// relay's floor on the servers' CPU (relay-floor.mjs, outbox-cost.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isCleaningUp } from './cleanup.mjs';
import { measureChanges } from './change-scenario.mjs';
import { countRows, queryNumber, settledNumber, settledRowCount, storedIds } from './databases.mjs';
import { cpuUs, startRssSampler, stopChild, tail, track } from './processes.mjs';
import { measureReads } from './read-scenario.mjs';
import { median } from './report.mjs';
import { importPlants } from './seed-plants.mjs';
import { sinceStart } from './servers.mjs';
import {
  CONNECTIONS,
  DURATION_S,
  LOAD_CPU,
  NATS_URL,
  ONLY,
  pinned,
  POSTGRES,
  READ_CONNECTIONS,
  REPEAT,
  ROOT,
  ROUTES,
  SERVER_CPU,
  TIMEOUT_S,
  WARMUP_S,
} from './settings.mjs';

// Unique ids across all runs: a random 48-bit base per bench invocation, then 2^32 ids per run.
// Everything stays below 2^53, so ids are exact whatever JSON parser reads them.
const ID_BASE = BigInt(`0x${randomBytes(6).toString('hex')}`) & ((1n << 48n) - 1n);
let runIndex = 0;

/** Every create run, added to `runs` as it ends, so that a failure keeps those before it. */
export async function measureCreates(targets, runs) {
  for (const connections of CONNECTIONS)
    for (let round = 1; round <= REPEAT; round++)
      for (const target of targets) {
        if (isCleaningUp()) break;
        runs.push(await measure(target, connections, round));
      }
}

/** One warm-up and one measured run of `target` at `connections`; the figures of the measured one. */
async function measure(target, connections, round) {
  const run = { target: target.name, connections, round };
  const { child, pid, port, logPath } = target.server;
  try {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${target.name} server has exited:\n${tail(logPath)}`);
    process.stderr.write(
      `bench: round ${round}/${REPEAT}, ${target.label} @ ${connections} conns: warm-up ${WARMUP_S} s, run ${DURATION_S} s\n`,
    );
    if (WARMUP_S > 0) await runLoad(port, target.token, connections, WARMUP_S, target.tmp);
    const before = await settledRowCount(target);
    const stopRss = startRssSampler(pid);
    const cpuBefore = cpuUs(pid);
    const from = sinceStart(target);
    let load;
    try {
      load = await runLoad(port, target.token, connections, DURATION_S, target.tmp);
    } finally {
      run.cpuUs = cpuUs(pid) - cpuBefore;
      run.window = [from, sinceStart(target)];
      const peakRss = stopRss();
      run.peakRssMb = peakRss.total / 1024;
      run.peakRssFileMb = peakRss.file / 1024;
      run.peakPrivateMb = peakRss.private / 1024;
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

/** A fresh range of 2^32 ids, disjoint from every other of this bench run. */
export const nextIdBase = () => ID_BASE + BigInt(runIndex++) * (1n << 32n);

/** One run of bench/load.mjs; `requests` picks what it sends other than creates (load-requests.mjs). */
export async function runLoad(port, token, connections, durationS, tmp, requests = {}) {
  const config = {
    url: `http://127.0.0.1:${port}`,
    connections,
    durationS,
    timeoutS: TIMEOUT_S,
    idBase: String(nextIdBase()),
    ...requests,
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

/** The read scenario on the project server, still running after the create runs; undefined when left out. */
export async function measureProjectReads(targets) {
  const project = targets.find((target) => target.name === 'project');
  if (!project || READ_CONNECTIONS === 0 || isCleaningUp()) return undefined;
  const { pid, port } = project.server;
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
        runLoad(port, project.token, connections, durationS, project.tmp, { read }),
      cpuUs: () => cpuUs(pid),
      sinceStart: () => sinceStart(project),
    },
  });
}

/** List pages, changes and deletes on the project server, after the reads; undefined when left out. */
export async function measureProjectChanges(targets, runs) {
  const project = targets.find((target) => target.name === 'project');
  if (!project || ROUTES.length === 0 || isCleaningUp()) return undefined;
  const { pid, port } = project.server;
  const createRates = new Map(
    CONNECTIONS.map((connections) => [
      connections,
      median(
        runs
          .filter((r) => r.target === 'project' && r.connections === connections && !r.failed)
          .map((r) => r.reqPerSec),
      ),
    ]),
  );
  return measureChanges({
    routes: ROUTES,
    connectionCounts: CONNECTIONS,
    rounds: REPEAT,
    warmupS: WARMUP_S,
    durationS: DURATION_S,
    createRates,
    log: (line) => process.stderr.write(line),
    io: {
      storedIds: (limit) => storedIds(project, limit),
      nextIdBase,
      seed: (first, count) => importPlants({ databaseUrl: project.env.DATABASE_URL, first, count, dir: project.tmp }),
      load: ({ connections, durationS, ...requests }) =>
        runLoad(port, project.token, connections, durationS, project.tmp, requests),
      cpuUs: () => cpuUs(pid),
      sinceStart: () => sinceStart(project),
      settledNumber: (sql) => settledNumber(() => queryNumber(project, sql)),
      startRssSampler: () => startRssSampler(pid),
    },
  });
}

/**
 * The relay's floor, on the servers' CPU, when the relay and the project without it both ran:
 * the JetStream client alone (bench/relay-floor.mjs) and, on SQLite, the outbox's own cost in
 * the store (bench/outbox-cost.mjs); undefined otherwise.
 */
export function measureRelayFloor(tmp) {
  if (!NATS_URL || !ONLY.has('quiet') || isCleaningUp()) return undefined;
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
