// One engine of `pnpm bench --against` (ab-run.mjs starts one process per engine, with
// BENCH_TMPFS / DATABASE_URL set as `pnpm bench` reads them): the candidate (this checkout) and
// the baseline each started on a fresh database of their own, then every scenario of the
// engine run as alternating slices (ab-slices.mjs): in repetition 1 A B, in 2 B A, and so on,
// so that a drift of the machine hits both builds alike. Prints one JSON line: every slice.
//
//   creates at 16 and 128 connections; on tmpfs at 128 also the relay on (both builds,
//   publishing to a nats-server of its own with its store on tmpfs), the stack floor and
//   `pnpm start` (both builds), in the same loop; on tmpfs GET one, list a page, PUT, DELETE
//   (where the baseline has the route) and the CLI's import.
import { join } from 'node:path';
import { cleanUpOnSignalsAndTimeLimit, cleanup, isCleaningUp, tempDirUnder } from './cleanup.mjs';
import { startNats } from './ab-nats.mjs';
import { importSlice, routeMethods, serverSlice } from './ab-slices.mjs';
import { storedIds } from './databases.mjs';
import { describeDatabases } from './run-report.mjs';
import { importPlants, writePlants } from './seed-plants.mjs';
import { nextIdBase } from './scenarios.mjs';
import { giveDatabases, startServers, stopServers } from './servers.mjs';
import { DURATION_S, LOG_LEVEL, POSTGRES, REPEAT, ROOT, TMPFS, TMPFS_DIR, WARMUP_S } from './settings.mjs';
import os from 'node:os';

const { baseline, scenarios, routeConnections, importPlantCount } = JSON.parse(process.argv[2]);
const want = new Set(scenarios);
const engine = POSTGRES ? 'postgres' : TMPFS ? 'tmpfs' : 'disk';
const candidate = { root: ROOT, node: process.execPath };
const SERVER_MAIN = 'apps/api/dist/main.js';
const log = (line) => process.stderr.write(`bench: ${engine}: ${line}\n`);

/** A server of `build`; `pnpm start` when `viaStart`, else `node apps/api/dist/main.js`. */
function server(name, build, { natsUrl = '', viaStart = false } = {}) {
  const env = { LOG_LEVEL, NATS_URL: natsUrl };
  const common = { name, label: name, root: build.root, node: build.node, nodeArgs: [], env };
  if (!viaStart) return { ...common, startedAs: '`node apps/api/dist/main.js`', script: join(build.root, SERVER_MAIN) };
  return {
    ...common,
    startedAs: '`pnpm start`',
    command: ['pnpm', ['start']],
    env: { ...env, npm_config_update_notifier: 'false' },
  };
}

async function main(slices, environment) {
  const tmp = tempDirUnder(TMPFS && !POSTGRES ? TMPFS_DIR : os.tmpdir());
  const onTmpfs = engine === 'tmpfs';
  const natsUrl = onTmpfs && want.has('relay') ? await startNats(tmp) : '';
  const targets = [server('cand', candidate), server('base', baseline)];
  if (natsUrl) targets.push(server('cand_relay', candidate, { natsUrl }), server('base_relay', baseline, { natsUrl }));
  if (onTmpfs && want.has('floor'))
    targets.push({
      name: 'floor',
      label: 'floor',
      script: join(ROOT, 'bench/stack-floor-server.mjs'),
      nodeArgs: [],
      env: {},
      storesNothing: true,
    });
  if (onTmpfs && want.has('start'))
    targets.push(
      server('cand_start', candidate, { viaStart: true }),
      server('base_start', baseline, { viaStart: true }),
    );
  for (const target of targets) target.tmp = tmp;
  const named = (name) => targets.find((t) => t.name === name);
  await describeDatabases(environment, tmp);
  await giveDatabases(targets, tmp);
  try {
    log(`starting ${targets.map((t) => t.name).join(', ')}`);
    await startServers(targets);
    const slice = (scenario, connections, names, options = () => ({})) =>
      alternate(
        names.map(named),
        async (target, rep) => ({
          scenario,
          connections,
          rep,
          target: target.name,
          ...(await serverSlice(target, { connections, warmupS: WARMUP_S, durationS: DURATION_S, ...options(target) })),
        }),
        slices,
      );
    if (want.has('create')) {
      await slice('create', 16, ['cand', 'base']);
      const extra = targets.filter((t) => !['cand', 'base'].includes(t.name)).map((t) => t.name);
      await slice('create', 128, ['cand', 'base', ...extra]);
    }
    if (!onTmpfs) return;
    const methods = Object.fromEntries(
      await Promise.all(['cand', 'base'].map(async (n) => [n, await routeMethods(named(n).server.port, '/plants/1')])),
    );
    environment.routes = methods;
    const able = (method) => ['cand', 'base'].filter((n) => methods[n].includes(method));
    const ids = {};
    for (const name of ['cand', 'base']) ids[name] = await storedIds(named(name), 1000, { anyRow: true });
    const c = routeConnections;
    if (want.has('get')) await slice('get', c, ['cand', 'base'], (t) => ({ requests: () => ({ read: ids[t.name] }) }));
    if (want.has('list'))
      await slice('list', c, ['cand', 'base'], (t) => ({
        requests: () => ({ list: { limit: 50, after: ids[t.name] } }),
      }));
    let tag = 0;
    if (want.has('put'))
      await slice('put', c, able('put'), (t) => ({
        requests: () => ({ put: { ids: ids[t.name], tag: `ab${++tag}` } }),
      }));
    if (want.has('delete')) {
      const pools = {};
      for (const name of able('delete')) pools[name] = await seedDeletes(named(name), slices, c, tmp);
      await slice('delete', c, able('delete'), (t) => ({
        requests: () => ({
          delete: { first: String(pools[t.name].next), count: String(pools[t.name].end - pools[t.name].next) },
        }),
        ran: (result) => (pools[t.name].next += BigInt(result.idsUsed)),
      }));
    }
  } finally {
    await stopServers(targets, []);
  }
  if (want.has('import')) await measureImport(slices, tmp);
}

/** Runs `measure(target, rep)` REPEAT times over `targets`, A B then B A, each slice added to `slices`. */
async function alternate(targets, measure, slices) {
  for (let rep = 1; rep <= REPEAT; rep++) {
    const order = rep % 2 === 1 ? targets : [...targets].reverse();
    for (const target of order) {
      if (isCleaningUp()) return;
      log(`repetition ${rep}/${REPEAT}: ${target.name ?? target.label}`);
      try {
        slices.push(await measure(target, rep));
      } catch (error) {
        slices.push({ rep, target: target.name ?? target.label, failed: error.message });
      }
    }
  }
}

/** Plants for every DELETE slice on `target`, stored by its own CLI. */
async function seedDeletes(target, slices, connections, tmp) {
  const rates = slices.filter((s) => s.scenario === 'create' && s.target === target.name && !s.failed);
  // The fastest create slice, three times over: a DELETE is cheaper than a create, and a slice
  // that runs out of plants stops early with its cost spread over fewer 2xx.
  const rate = Math.max(0, ...rates.map((s) => s.reqPerSec)) || 10_000;
  const count = Math.min(5_000_000, REPEAT * (Math.ceil(rate * 3 * (WARMUP_S + DURATION_S)) + connections));
  const first = nextIdBase();
  log(`storing ${count} plants for ${target.name}'s DELETE slices`);
  await importPlants({
    databaseUrl: target.env.DATABASE_URL,
    first,
    count,
    dir: tmp,
    node: target.node,
    root: target.root,
  });
  return { next: first, end: first + BigInt(count) };
}

/** The CLI's import of the same file by both builds, alternating, each into a fresh SQLite file on tmpfs. */
async function measureImport(slices, tmp) {
  const file = join(tmp, 'import.ndjson');
  await writePlants(file, 1n, importPlantCount);
  const builds = [
    { ...candidate, name: 'cand' },
    { ...baseline, name: 'base' },
  ];
  await alternate(
    builds,
    async (build, rep) => ({
      scenario: 'import',
      connections: 0,
      rep,
      target: build.name,
      ...(await importSlice(build, file, tmp, `import-${build.name}-${rep}`)),
    }),
    slices,
  );
}

const stopTimeLimit = cleanUpOnSignalsAndTimeLimit(3 * 3600 * 1000);
const slices = [];
const environment = { lines: [] };
let exitCode = 0;
try {
  await main(slices, environment);
} catch (error) {
  slices.push({ target: 'setup', failed: error.message });
  exitCode = 1;
} finally {
  await cleanup();
  stopTimeLimit();
}
process.stdout.write(`${JSON.stringify({ engine, environment, slices })}\n`);
process.exit(exitCode);
