// `pnpm bench --against [<git ref>]`: this checkout (the candidate) beside another commit (the
// baseline; by default the previous release that bench/README.md names), built in a temporary
// worktree (ab-baseline.mjs), every scenario run on both in alternating slices, one process per
// engine (ab-engine.mjs), and the ratios reported (ab-report.mjs) and saved under
// bench/results/. `--smoke` is the CI's short run: tmpfs only, a few seconds a slice, not saved,
// and exit 3 when a cost is 2× the baseline's in both its best and its median repetition.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { buildBaseline, previousRelease, resolveRef } from './ab-baseline.mjs';
import { abReport, beyondFactor } from './ab-report.mjs';
import { cleanUpOnSignalsAndTimeLimit, cleanup } from './cleanup.mjs';
import { track } from './processes.mjs';
import { writeResult } from './results.mjs';
import { CPUS, LOAD_CPU, PIN, pinned, ROOT, SERVER_CPU } from './settings.mjs';

const ALL_SCENARIOS = ['create', 'relay', 'floor', 'start', 'get', 'list', 'put', 'delete', 'import'];
const SMOKE = {
  engines: ['tmpfs'],
  scenarios: ['create', 'get', 'list', 'put', 'delete', 'import'],
  durationS: 2,
  warmupS: 0.5,
  repeat: 2,
  importPlants: 20_000,
  failAbove: 2,
};
const FULL = { scenarios: ALL_SCENARIOS, durationS: 5, warmupS: 1, repeat: 5, importPlants: 200_000 };
const list = (value) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const log = (line) => process.stderr.write(`bench: ${line}\n`);

/** GET, the list and PUT read the plants the creates stored: without the creates they would answer 404s. */
function withCreatesRoutesRead(scenarios) {
  if (scenarios.includes('create') || !scenarios.some((s) => ['get', 'list', 'put'].includes(s))) return scenarios;
  log('get, list and put read the plants the creates store: create added to the scenarios');
  return ['create', ...scenarios];
}

function options(args) {
  const smoke = args.includes('--smoke');
  const at = args.indexOf('--against');
  const given = args[at + 1] && !args[at + 1].startsWith('--') ? args[at + 1] : undefined;
  const base = smoke ? SMOKE : FULL;
  const pgUrl = process.env.DATABASE_URL ?? '';
  const env = process.env;
  return {
    smoke,
    ref: given ?? previousRelease(),
    engines: list(env.BENCH_AB_ENGINES) ?? base.engines ?? ['tmpfs', 'disk', ...(pgUrl ? ['postgres'] : [])],
    scenarios: withCreatesRoutesRead(list(env.BENCH_AB_SCENARIOS) ?? base.scenarios),
    durationS: env.BENCH_DURATION_S ?? String(base.durationS),
    warmupS: env.BENCH_WARMUP_S ?? String(base.warmupS),
    repeat: env.BENCH_REPEAT ?? String(base.repeat),
    importPlants: Number(env.BENCH_AB_IMPORT_PLANTS ?? base.importPlants),
    routeConnections: Number(env.BENCH_AB_CONNECTIONS ?? 128),
    pgUrl,
  };
}

/** One engine's process; its slices. */
async function runEngine(engine, opts, baseline) {
  const env = {
    // Ports below the test suites' (20000 and up), which other work on the machine may take
    // meanwhile, and by the pid apart from another A/B run's: a port taken between the check
    // and the listen makes a server's readiness probe answered by someone else's.
    TEST_FIRST_PORT: String(10_000 + (process.pid % 16) * 600),
    ...process.env,
    BENCH_DURATION_S: opts.durationS,
    BENCH_WARMUP_S: opts.warmupS,
    BENCH_REPEAT: opts.repeat,
  };
  for (const name of [
    'BENCH_TMPFS',
    'DATABASE_URL',
    'BENCH_ONLY',
    'BENCH_COMPARE_ROOT',
    'BENCH_COMPARE_NODE',
    'BENCH_NATS_URL',
    'BENCH_PROFILE',
  ])
    delete env[name];
  if (engine === 'tmpfs') env.BENCH_TMPFS = '1';
  if (engine === 'postgres') env.DATABASE_URL = opts.pgUrl;
  const config = {
    baseline,
    scenarios: opts.scenarios,
    routeConnections: opts.routeConnections,
    importPlantCount: opts.importPlants,
  };
  const [command, args] = pinned(LOAD_CPU, process.execPath, [
    join(ROOT, 'bench/ab-engine.mjs'),
    JSON.stringify(config),
  ]);
  const child = track(
    spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', opts.smoke ? 'ignore' : 'inherit'] }),
    engine,
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  await child.exited;
  try {
    return JSON.parse(stdout.trim().split('\n').at(-1));
  } catch {
    return {
      engine,
      environment: { lines: [] },
      slices: [{ target: 'setup', failed: `the ${engine} engine printed no result` }],
    };
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function runAgainst(args) {
  const stopTimeLimit = cleanUpOnSignalsAndTimeLimit(4 * 3600 * 1000);
  try {
    const opts = options(args);
    if (opts.engines.includes('postgres') && !opts.pgUrl)
      throw new Error('the postgres engine needs DATABASE_URL=postgres://…');
    const { ref, commit, subject } = resolveRef(opts.ref);
    const startedAt = new Date();
    const loadAtStart = loadAverage();
    const baseline = buildBaseline(commit, log);
    const engines = [];
    for (const engine of opts.engines)
      engines.push(await runEngine(engine, opts, { root: baseline.root, node: baseline.node }));
    const header = [
      `${startedAt.toISOString()}, ${CPUS} CPUs (${os.cpus()[0]?.model?.trim()}), ${os.platform()} ${os.release()}; candidate: this checkout on node ${process.version}; baseline: \`${ref}\` = ${subject}, built in ${baseline.buildS.toFixed(0)} s in a temporary worktree`,
      `load average at start ${loadAtStart}, at end ${loadAverage()} (other work on the machine: what the alternation is for)`,
      PIN
        ? `servers pinned to CPU ${SERVER_CPU}, load generator (autocannon) and the CLI's driver to CPU ${LOAD_CPU}; the import pinned to CPU ${SERVER_CPU}`
        : 'no pinning',
      `${opts.repeat} repetitions; each slice a ${opts.warmupS} s warm-up then ${opts.durationS} s measured, the builds alternating A B, B A, …; engines: ${opts.engines.join(', ')}; list, GET, PUT, DELETE at ${opts.routeConnections} connections; import of ${opts.importPlants.toLocaleString('en-US')} plants`,
      ...engines.flatMap(({ engine, environment }) => environment.lines.map((line) => `${engine}: ${line}`)),
    ];
    // The smoke's few short slices mark only what it fails on.
    const margin = opts.smoke ? SMOKE.failAbove - 1 : undefined;
    const { markdown, rows } = abReport({ header, engines, margin });
    console.log(markdown);
    const setupFailed = engines.some(({ slices }) => slices.some((s) => s.target === 'setup'));
    if (!opts.smoke && !setupFailed)
      console.log(`saved to ${writeResult(`pnpm bench --against ${ref}`, markdown, `against-${commit.slice(0, 7)}`)}`);
    const failed = engines.some(({ slices }) => slices.some((s) => s.failed));
    if (opts.smoke) {
      const beyond = beyondFactor(rows, SMOKE.failAbove);
      for (const r of beyond)
        console.log(`bench smoke: ${r.scenario}${r.note} costs over ${SMOKE.failAbove}× the baseline's`);
      if (beyond.length) return 3;
    }
    return failed ? 1 : 0;
  } catch (error) {
    console.error(`bench: ${error.message}`);
    return 1;
  } finally {
    await cleanup();
    stopTimeLimit();
  }
}
