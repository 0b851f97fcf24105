// `pnpm bench` (run after `pnpm build`): POST /plants on the project's server beside bare
// baselines, and what it costs; then the project's other routes. See bench/README.md. A run, in the order it happens:
//
//   settings.mjs    what the BENCH_* variables ask for
//   servers.mjs     which servers run, each on a database of its own (databases.mjs), and how they start
//   scenarios.mjs   what load each run applies: creates in interleaved rounds, reads, list pages,
//                   changes and deletes (change-scenario.mjs), the relay's floor
//   run-report.mjs  what is printed, and saved under bench/results/ when every run completed
//   cleanup.mjs     children (processes.mjs), temp dirs and databases removed, also on failure,
//                   Ctrl-C or the overall time limit
//   ab-run.mjs      with --against: the candidate beside a baseline commit (ab-baseline.mjs, ab-engine.mjs,
//                   ab-slices.mjs, ab-report.mjs)
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { cleanUpOnSignalsAndTimeLimit, cleanup, tempDirUnder } from './cleanup.mjs';
import { describeDatabases, describeRun, printAndSave } from './run-report.mjs';
import { measureCreates, measureProjectChanges, measureProjectReads, measureRelayFloor } from './scenarios.mjs';
import { giveDatabases, serversToRun, startServers, stopServers } from './servers.mjs';
import { LOAD_CPU, OVERALL_LIMIT_MS, PIN, POSTGRES, TMPFS, TMPFS_DIR } from './settings.mjs';

async function main() {
  if (PIN) spawnSync('taskset', ['-a', '-p', '-c', LOAD_CPU, String(process.pid)], { stdio: 'ignore' }); // keep the driver off the server's core
  if (TMPFS && !POSTGRES && !existsSync(TMPFS_DIR)) {
    console.error(`bench: BENCH_TMPFS=1 needs ${TMPFS_DIR} (a tmpfs)`);
    return 2;
  }
  const tmp = tempDirUnder(TMPFS && !POSTGRES ? TMPFS_DIR : os.tmpdir());
  const environment = describeRun();
  const targets = serversToRun(tmp);
  await describeDatabases(environment, tmp);
  await giveDatabases(targets, tmp);

  const runs = [];
  let reads;
  let changes;
  try {
    await startServers(targets);
    await measureCreates(targets, runs);
    reads = await measureProjectReads(targets);
    changes = await measureProjectChanges(targets, runs);
    const relayFloor = measureRelayFloor(tmp);
    if (relayFloor) environment.relayFloor = relayFloor;
  } catch (error) {
    runs.push({ target: 'setup', connections: 0, round: 0, failed: error.message });
  } finally {
    await stopServers(targets, runs);
  }
  return printAndSave({ runs, reads, changes, targets, environment });
}

// `pnpm bench --against [<ref>]`: this checkout beside another commit (ab-run.mjs).
if (process.argv.includes('--against'))
  process.exit(await (await import('./ab-run.mjs')).runAgainst(process.argv.slice(2)));

const stopTimeLimit = cleanUpOnSignalsAndTimeLimit(OVERALL_LIMIT_MS);
let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`bench: ${error.stack || error.message}`);
} finally {
  await cleanup();
  stopTimeLimit();
}
process.exit(exitCode);
