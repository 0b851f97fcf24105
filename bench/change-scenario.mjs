// The other routes of `pnpm bench` (bench/run.mjs), on the project server after the creates
// and the reads: GET /plants list pages, PUT /plants/{id} and DELETE /plants/{id}, at each
// connection count, BENCH_REPEAT interleaved rounds (one run of each route per round), so that
// their CPU per 2xx can be set beside the create's of the same run (change-report.mjs).
//
// Every 2xx must be real work, and durable: each PUT sends a name never sent before, to a
// live plant, so each 200 raises its version (the sum of versions must rise by at least the
// 200s); each DELETE an id of its own among plants seeded for it, so each 204 is a new
// tombstone (the tombstones must grow by at least the 204s).

export const ROUTES = ['list', 'put', 'delete'];
export const LIST_LIMIT = 50;
/** Ids the list pages start after and PUTs cycle through: far more than connections, so PUTs of one plant rarely overlap. */
const MIN_IDS = 1000;
/** Plants seeded per DELETE run: twice what the create rate would delete, so a run does not run out. */
const SEED_MARGIN = 2;
const MAX_SEED = 5_000_000;

/** What each run measures on the side: the number that must rise by its 2xx. */
const WRITTEN = {
  put: 'SELECT COALESCE(SUM(version), 0) AS n FROM plant',
  delete: 'SELECT count(*) AS n FROM plant WHERE deleted_at IS NOT NULL',
};

/**
 * Runs the scenario. `createRates` maps each connection count to the project's create req/s;
 * `io` is the driver's: `storedIds(limit)`, `seed(first, count)` (stores plants with those ids),
 * `nextIdBase()` (a fresh id range), `load(config)` (bench/load.mjs, one run), `cpuUs()`,
 * `sinceStart()`, `startRssSampler()` (processes.mjs's, on the server) and `settledNumber(sql)`
 * (a number read from the store once it stops moving).
 */
export async function measureChanges({ routes, connectionCounts, rounds, warmupS, durationS, createRates, io, log }) {
  const ids = await io.storedIds(Math.max(MIN_IDS, 8 * Math.max(...connectionCounts)));
  if (ids.length === 0) throw new Error('no plant stored to list or change');
  const pool = routes.includes('delete')
    ? await seedDeletes({ connectionCounts, rounds, seconds: warmupS + durationS, createRates, io, log })
    : undefined;
  const runs = [];
  let tag = 0;
  const configOf = (route) => {
    if (route === 'list') return { list: { limit: LIST_LIMIT, after: ids } };
    if (route === 'put') return { put: { ids, tag: `r${++tag}` } };
    return { delete: { first: String(pool.next), count: String(pool.end - pool.next) } };
  };
  const load = async (route, connections, seconds) => {
    const result = await io.load({ connections, durationS: seconds, ...configOf(route) });
    if (route === 'delete') pool.next += BigInt(result.idsUsed);
    return result;
  };
  for (const connections of connectionCounts)
    for (let round = 1; round <= rounds; round++)
      for (const route of routes) {
        log(
          `bench: round ${round}/${rounds}, ${route} @ ${connections} conns: warm-up ${warmupS} s, run ${durationS} s\n`,
        );
        const run = { route, connections, round };
        try {
          if (warmupS > 0) await load(route, connections, warmupS);
          const before = WRITTEN[route] ? await io.settledNumber(WRITTEN[route]) : 0;
          const stopRss = io.startRssSampler();
          const cpuBefore = io.cpuUs();
          const from = io.sinceStart();
          try {
            Object.assign(run, await load(route, connections, durationS));
          } finally {
            run.cpuUs = io.cpuUs() - cpuBefore;
            run.window = [from, io.sinceStart()];
            const peakRss = stopRss();
            run.peakRssMb = peakRss.total / 1024;
            run.peakPrivateMb = peakRss.private / 1024;
            run.peakRssFileMb = peakRss.file / 1024;
          }
          if (WRITTEN[route]) run.written = (await io.settledNumber(WRITTEN[route])) - before;
        } catch (error) {
          run.failed = error.message;
        }
        runs.push(run);
      }
  return { ids: ids.length, seeded: pool ? Number(pool.end - pool.first) : 0, runs };
}

/** Plants for every DELETE run of the scenario, each id deleted once: { first, next, end }. */
async function seedDeletes({ connectionCounts, rounds, seconds, createRates, io, log }) {
  let count = 0;
  for (const connections of connectionCounts) {
    const rate = createRates.get(connections) || 10_000;
    count += rounds * (Math.ceil(rate * seconds * SEED_MARGIN) + connections);
  }
  count = Math.min(count, MAX_SEED);
  const first = io.nextIdBase();
  log(`bench: storing ${count.toLocaleString('en-US')} plants for the DELETE runs (plantstore plants import)\n`);
  await io.seed(first, count);
  return { first, next: first, end: first + BigInt(count) };
}

/**
 * A run's durable check: what it wrote (versions raised, tombstones added) is at least its
 * 2xx, and at most one more per connection (a request cut off at the end may still commit).
 */
export function writtenCheck(run) {
  if (run.written === undefined) return { ok: true };
  const extra = run.written - run.ok2xx;
  return { ok: extra >= 0 && extra <= run.connections, extra };
}
