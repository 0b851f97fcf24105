// The read scenario of `pnpm bench` (bench/run.mjs): GET /plants/{id} on the project server at
// BENCH_READ_CONNECTIONS (128), over plants already stored (the create runs' rows, or a short
// seeding run when there are too few), BENCH_REPEAT rounds. Reported: req/s, latency, non-2xx,
// and the server's CPU per read, beside the stack floor's create rate at the same connection
// count when the floor ran (BENCH_ONLY=…,floor): reads do no fsync, so they should serve at
// least 0.8× what the bare stack serves for a create that stores nothing.
import { fmt } from './report.mjs';

export const READ_IDS = 1000;
export const READ_RATIO_TARGET = 0.8;

function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs the scenario. `io` is the driver's: `storedIds(limit)` (decimal texts of stored ids),
 * `seed()` (a short create run), `load(config)` (bench/load.mjs, one run) and `cpuUs()` (the
 * server's CPU time so far).
 */
export async function measureReads({ connections, rounds, warmupS, durationS, io, log }) {
  let ids = await io.storedIds(READ_IDS);
  if (ids.length < READ_IDS) {
    await io.seed();
    ids = await io.storedIds(READ_IDS);
  }
  if (ids.length === 0) throw new Error('no plant stored to read');
  const runs = [];
  for (let round = 1; round <= rounds; round++) {
    log(
      `bench: read round ${round}/${rounds}, GET /plants/{id} @ ${connections} conns: warm-up ${warmupS} s, run ${durationS} s\n`,
    );
    try {
      if (warmupS > 0) await io.load({ connections, durationS: warmupS, read: ids });
      const cpuBefore = io.cpuUs();
      const from = io.sinceStart();
      const result = await io.load({ connections, durationS, read: ids });
      runs.push({ ...result, cpuUs: io.cpuUs() - cpuBefore, window: [from, io.sinceStart()], round });
    } catch (error) {
      runs.push({ round, failed: error.message });
    }
  }
  return { connections, ids: ids.length, runs };
}

/** The markdown section of the scenario; `floorRuns` are the stack floor's create runs at any connection count. */
export function readReport({ connections, ids, runs }, floorRuns) {
  const ok = runs.filter((r) => !r.failed);
  const rates = ok.map((r) => r.reqPerSec);
  const rate = median(rates);
  const cpuPerRead = median(ok.map((r) => (r.ok2xx > 0 ? r.cpuUs / r.ok2xx : Number.NaN)));
  const out = [
    '',
    `### Reads: GET /plants/{id}, project, ${connections} connections`,
    '',
    `- ${ids} stored ids read in turn, ${runs.length} round(s), medians shown; every response should be 200 (plants exist)`,
    '',
    '| req/s median (min – max) | p50 ms | p99 ms | server CPU µs per read (2xx) | non-2xx | errors (timeouts) |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${fmt(rate)} (${fmt(Math.min(...rates))} – ${fmt(Math.max(...rates))}) | ${fmt(median(ok.map((r) => r.latencyMs.p50)))} | ${fmt(median(ok.map((r) => r.latencyMs.p99)))} | ${fmt(cpuPerRead, 1)} | ${fmt(ok.reduce((a, r) => a + r.non2xx, 0))} | ${fmt(ok.reduce((a, r) => a + r.errors, 0))} (${fmt(ok.reduce((a, r) => a + r.timeouts, 0))}) |`,
    '',
  ];
  for (const failed of runs.filter((r) => r.failed)) out.push(`- round ${failed.round} failed: ${failed.failed}`);
  const floor = floorRuns.filter((r) => !r.failed && r.connections === connections);
  if (floor.length === 0) {
    out.push(
      `- stack floor's create rate at ${connections} connections: not measured in this run (add \`floor\` to BENCH_ONLY and ${connections} to BENCH_CONNECTIONS)`,
    );
  } else {
    const floorRate = median(floor.map((r) => r.reqPerSec));
    const floorCpu = median(floor.map((r) => (r.ok2xx > 0 ? r.cpuUs / r.ok2xx : Number.NaN)));
    const ratio = rate / floorRate;
    out.push(
      `- stack floor's create rate at ${connections} connections: ${fmt(floorRate)} req/s (${fmt(floorCpu, 1)} µs CPU per 2xx); reads ÷ floor creates: **${ratio.toFixed(2)} ×** (target ≥ ${READ_RATIO_TARGET}: ${ratio >= READ_RATIO_TARGET ? 'met' : 'NOT met'})`,
    );
  }
  return out.join('\n');
}
