// What keeping names searchable costs the writes: `node bench/name-search-cost.mjs BEFORE_ROOT`
// (run after `pnpm build`; BEFORE_ROOT a built checkout without name search, as for
// BENCH_COMPARE_ROOT). In the same run, BENCH_REPEAT (3) interleaved rounds, each on this
// checkout and on BEFORE_ROOT in turn, each on a fresh SQLite file under /dev/shm (CPU only,
// as BENCH_TMPFS=1), or with DATABASE_URL=postgres://… a fresh database on that server:
//
//   import   `plantstore plants import` of BENCH_COST_PLANTS (200,000) named plants: the CLI's CPU
//            (user + system, from /usr/bin/time)
//   creates  POST /plants at 16 connections for BENCH_DURATION_S (10) s: the server's CPU per 2xx
//   PUTs     PUT /plants/{id} over the imported plants, likewise
//
// and prints each checkout's median and the ratio, against the 1.1× target. PostgreSQL's own
// CPU (where its index is kept) is not counted, as in `pnpm bench`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPostgresDatabase } from '../test-support/postgres.mjs';
import { writeNamedPlants } from './name-search.mjs';
import { cpuUs, sleep, stopChild, track } from './processes.mjs';
import { fmt, median } from './report.mjs';
import { writeResult } from './results.mjs';
import { DATABASE_URL, DURATION_S, POSTGRES, REPEAT, ROOT, WARMUP_S } from './settings.mjs';

const PLANTS = Number(process.env.BENCH_COST_PLANTS || 200_000);
const TARGET = 1.1;
const before = process.argv[2] ? resolve(process.argv[2]) : '';
if (!before) {
  console.error('usage: node bench/name-search-cost.mjs BEFORE_ROOT (a built checkout without name search)');
  process.exit(2);
}
const checkouts = [
  { name: 'with name search', root: ROOT },
  { name: 'before', root: before },
];
const dir = mkdtempSync(join(POSTGRES ? '/tmp' : '/dev/shm', 'plantstore-search-cost-'));
const plantsFile = join(dir, 'plants.ndjson');
let port = 3950;

/** A fresh store: a SQLite file, or a new PostgreSQL database (dropped at the end). */
const databases = [];
async function freshStore(label) {
  if (!POSTGRES) return `sqlite:${join(dir, `${label}.sqlite`)}`;
  // Commits that do not wait for the disk: CPU only, as BENCH_TMPFS=1 does on PostgreSQL.
  const database = await createPostgresDatabase(DATABASE_URL, 'plantstore_cost_', {
    settings: { synchronous_commit: 'off' },
  });
  databases.push(database);
  return database.url;
}

function cli(root, databaseUrl, args) {
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%U %S', process.execPath, join(root, 'apps/cli/dist/main.js'), ...args],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  if (result.status !== 0) throw new Error(`plantstore ${args.join(' ')}: ${result.stderr.slice(-2000)}`);
  const [user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { stdout: result.stdout, cpuS: user + system };
}

async function load(url, token, config) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bench/load.mjs'), JSON.stringify({ url, timeoutS: 10, ...config })],
    {
      env: { ...process.env, BENCH_LOAD_TOKEN: token },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
  await new Promise((done) => child.once('exit', done));
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** Server CPU µs per 2xx of one measured run after a warm-up. */
async function serverCpuPer2xx(pid, url, token, config) {
  if (WARMUP_S > 0) await load(url, token, { ...config, durationS: WARMUP_S });
  const cpuBefore = cpuUs(pid);
  const result = await load(url, token, { ...config, durationS: DURATION_S });
  return (cpuUs(pid) - cpuBefore) / result.ok2xx;
}

async function measure({ root }, round) {
  const databaseUrl = await freshStore(`r${round}-${root === ROOT ? 'after' : 'before'}`);
  const token = JSON.parse(
    cli(root, databaseUrl, ['token', 'create', '--name', 'cost', '--json']).stdout.trim().split('\n').at(-1),
  ).token;
  const importCpuS = cli(root, databaseUrl, ['plants', 'import', plantsFile, '--json']).cpuS;
  const serverPort = port++;
  const server = track(
    spawn(process.execPath, [join(root, 'apps/api/dist/main.js')], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(serverPort), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    }),
    'server',
  );
  const url = `http://127.0.0.1:${serverPort}`;
  try {
    for (let tries = 0; ; tries++) {
      const ready = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      // A busy machine can take long to start a server: two minutes.
      if (tries > 600) throw new Error(`${root}: the server did not get ready`);
      await sleep(200);
    }
    const createUs = await serverCpuPer2xx(server.pid, url, token, {
      connections: 16,
      idBase: String(10n ** 15n * BigInt(round)),
    });
    const ids = Array.from({ length: 5000 }, (_, i) => String(1 + i * Math.floor(PLANTS / 5000)));
    const putUs = await serverCpuPer2xx(server.pid, url, token, { connections: 16, put: { ids, tag: `r${round}` } });
    return { importUsPerPlant: (importCpuS * 1e6) / PLANTS, createUs, putUs };
  } finally {
    await stopChild(server, 10_000);
  }
}

try {
  await writeNamedPlants(plantsFile, PLANTS);
  const results = new Map(checkouts.map((checkout) => [checkout.name, []]));
  for (let round = 1; round <= REPEAT; round++)
    for (const checkout of checkouts) {
      process.stderr.write(`bench: cost round ${round}/${REPEAT}, ${checkout.name}\n`);
      try {
        const figures = await measure(checkout, round);
        results.get(checkout.name).push(figures);
        process.stderr.write(`bench: ${JSON.stringify(figures)}\n`);
      } catch (error) {
        // A round that failed is left out of the medians, and said.
        process.stderr.write(`bench: cost round ${round}, ${checkout.name} failed: ${error.message}\n`);
      }
    }
  const lines = [
    `### What name search costs the writes (${POSTGRES ? 'PostgreSQL' : 'SQLite on /dev/shm'}, CPU only)`,
    '',
    `- this checkout against ${before}, ${REPEAT} interleaved round(s), medians; import of ${fmt(PLANTS)} named plants (the CLI's CPU per plant), creates and PUTs at 16 connections for ${DURATION_S} s (the server's CPU per 2xx)${POSTGRES ? '; PostgreSQL\u2019s own CPU not counted' : ''}`,
    '',
    '| write | with name search µs | before µs | ratio | ≤ 1.1× |',
    '|---|---:|---:|---:|:---:|',
  ];
  for (const [key, label] of [
    ['importUsPerPlant', 'import, CLI CPU per plant'],
    ['createUs', 'POST /plants, server CPU per 2xx'],
    ['putUs', 'PUT /plants/{id}, server CPU per 2xx'],
  ]) {
    const [after, old] = checkouts.map((c) => median(results.get(c.name).map((r) => r[key])));
    const ratio = after / old;
    lines.push(
      `| ${label} | ${fmt(after, 1)} | ${fmt(old, 1)} | ${ratio.toFixed(2)} | ${ratio <= TARGET ? 'yes' : '**no**'} |`,
    );
  }
  const markdown = lines.join('\n');
  console.log(markdown);
  console.log(
    `saved to ${writeResult('node bench/name-search-cost.mjs', markdown, POSTGRES ? 'search-cost-postgres' : 'search-cost')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop().catch(() => {});
}
