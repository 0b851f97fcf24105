// `pnpm bench:import` driver (run after `pnpm build`). See bench/README.md.
//
// Writes BENCH_IMPORT_PLANTS generated plants (default 1,000,000) as NDJSON to a temp file,
// then runs the real CLI, `plantstore plants import FILE --json`, on a fresh database: SQLite
// on a temp file (WAL, synchronous=FULL, the default), or with DATABASE_URL=postgres://… a
// new database on that server, once with PlantCreated events off and once on
// (BENCH_IMPORT_EVENTS). It samples the CLI's RSS from /proc every 50 ms, runs the same import
// a second time (every line unchanged: the re-run cost), checks the row count, and prints one
// markdown table, saved under bench/results/. Temp files and the database are always removed.
// With BENCH_IMPORT_TOMBSTONES=N it compares instead an import into an empty store with one
// into a store holding N tombstones (bench/import-tombstones.mjs).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase, withPostgres } from '../test-support/postgres.mjs';
import { compareWithTombstones } from './import-tombstones.mjs';
import { writeResult } from './results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'apps/cli/dist/main.js');
const persistenceRequire = createRequire(join(ROOT, 'packages/adapters-persistence/package.json'));

const PLANTS = Number(process.env.BENCH_IMPORT_PLANTS || 1_000_000);
const BATCH_SIZE = process.env.BENCH_IMPORT_BATCH_SIZE || '';
const DATABASE_URL = process.env.DATABASE_URL || '';
// Which PlantCreated events settings to measure, each on a fresh database: off (a new store's
// default), on (`plantstore events enable` first), or both.
const EVENTS = { off: ['off'], on: ['on'], both: ['off', 'on'] }[process.env.BENCH_IMPORT_EVENTS || 'both'];
if (EVENTS === undefined) {
  console.error('bench: BENCH_IMPORT_EVENTS must be off, on or both');
  process.exit(2);
}
// Tombstones in the second store of the comparison; 0: the runs above instead.
const TOMBSTONES = Number(process.env.BENCH_IMPORT_TOMBSTONES || 0);
const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS || 3);
if (![TOMBSTONES, ROUNDS].every(Number.isInteger) || TOMBSTONES < 0 || ROUNDS < 1 || ROUNDS > 20) {
  console.error('bench: BENCH_IMPORT_TOMBSTONES must be a whole number, BENCH_IMPORT_ROUNDS one from 1 to 20');
  process.exit(2);
}
const POSTGRES = /^postgres(ql)?:\/\//i.test(DATABASE_URL);
if (!Number.isInteger(PLANTS) || PLANTS < 1 || PLANTS > 50_000_000) {
  console.error('bench: BENCH_IMPORT_PLANTS must be an integer from 1 to 50,000,000');
  process.exit(2);
}
if (DATABASE_URL && !POSTGRES) {
  console.error('bench: DATABASE_URL selects PostgreSQL (postgres://…); leave it unset for SQLite on a temp file.');
  process.exit(2);
}

const dir = mkdtempSync(join(os.tmpdir(), 'plantstore-bench-import-'));
const pgDatabases = [];

async function cleanup() {
  rmSync(dir, { recursive: true, force: true });
  for (const database of pgDatabases.splice(0)) await database.drop().catch(() => {});
}

const STEP = (2n ** 64n - 1n) / BigInt(PLANTS + 1);
/** The i-th generated plant's id: spread over the whole int64 range (both signs, beyond 2^53). */
const generatedId = (i) => -(2n ** 63n) + STEP * BigInt(i + 1);

/** The generated plants, with names and tags of realistic length. */
async function writePlants(path) {
  const out = createWriteStream(path);
  let text = '';
  for (let i = 0; i < PLANTS; i++) {
    const id = generatedId(i);
    text += `{"id":${id},"name":"Plant number ${i}","tag":"family ${i % 97}"}\n`;
    if (text.length > 1 << 20) {
      if (!out.write(text)) await once(out, 'drain');
      text = '';
    }
  }
  out.end(text);
  await once(out, 'finish');
}

function vmKb(pid, field) {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Runs one import; returns its JSON summary and the process's peak RSS (VmHWM, sampled to the end). */
async function runImport(file, databaseUrl) {
  const args = [CLI, 'plants', 'import', file, '--json', ...(BATCH_SIZE ? ['--batch-size', BATCH_SIZE] : [])];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (t) => (stdout += t));
  let peakKb = 0;
  const sampler = setInterval(() => (peakKb = Math.max(peakKb, vmKb(child.pid, 'VmHWM'))), 50);
  const [status] = await once(child, 'exit');
  clearInterval(sampler);
  if (status !== 0) throw new Error(`import exited ${status}: ${stdout}`);
  return { summary: JSON.parse(stdout.trimEnd().split('\n').at(-1)), peakMb: peakKb / 1024 };
}

async function countRows(databaseUrl, where = 'true') {
  const sql = `SELECT count(*) AS n FROM plant WHERE ${where}`;
  if (POSTGRES) return withPostgres(databaseUrl, async (c) => Number((await c.query(sql)).rows[0].n));
  const Database = persistenceRequire('better-sqlite3');
  const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
  try {
    return Number(db.prepare(sql).get().n);
  } finally {
    db.close();
  }
}

/** A fresh database for one run: a SQLite file in the temp dir, or a new PostgreSQL database. */
async function freshDatabase(name) {
  if (!POSTGRES) return `sqlite:${join(dir, `${name}.sqlite`)}`;
  const database = await createPostgresDatabase(DATABASE_URL, 'plantstore_bench_');
  pgDatabases.push(database);
  return database.url;
}

/** Removes a database once measured, so that rounds do not fill the disk. */
async function discardDatabase(databaseUrl) {
  if (!POSTGRES) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(databaseUrl.slice('sqlite:'.length) + suffix, { force: true });
    return;
  }
  const database = pgDatabases.find((d) => d.url === databaseUrl);
  if (!database) return;
  pgDatabases.splice(pgDatabases.indexOf(database), 1);
  await database.drop();
}

async function enableEvents(databaseUrl) {
  const child = spawn(process.execPath, [CLI, 'events', 'enable'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'ignore',
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`plantstore events enable exited ${code}`);
}

async function main() {
  const file = join(dir, 'plants.ndjson');
  process.stderr.write(`bench: writing ${PLANTS.toLocaleString('en-US')} plants…\n`);
  await writePlants(file);
  if (TOMBSTONES > 0) return tombstoneComparison(file);
  const runs = [];
  for (const events of EVENTS) {
    const databaseUrl = await freshDatabase(`events-${events}`);
    if (events === 'on') await enableEvents(databaseUrl);
    process.stderr.write(`bench: importing with events ${events} (first run, then the same file again)…\n`);
    const first = await runImport(file, databaseUrl);
    const again = await runImport(file, databaseUrl);
    runs.push({ events, first, again, rows: await countRows(databaseUrl) });
  }

  const out = [];
  const engine = POSTGRES ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL)';
  const sizeMb = statSync(file).size / 1024 / 1024;
  out.push(`\nImport benchmark: ${PLANTS.toLocaleString('en-US')} plants, NDJSON ${sizeMb.toFixed(0)} MB, ${engine}`);
  out.push(
    `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}`,
  );
  out.push(`batch size ${BATCH_SIZE || 'default (1000)'}\n`);
  out.push('| PlantCreated events | run | imported | unchanged | seconds | plants/s | peak RSS | rows afterwards |');
  out.push('|---|---|---:|---:|---:|---:|---:|---|');
  for (const { events, first, again, rows } of runs) {
    for (const [label, { summary, peakMb }] of [
      ['first import', first],
      ['same file again', again],
    ]) {
      const rate = Math.round(summary.lines / summary.seconds);
      out.push(
        `| ${events} | ${label} | ${summary.imported.toLocaleString('en-US')} | ${summary.unchanged.toLocaleString('en-US')} | ${summary.seconds.toFixed(2)} | ${rate.toLocaleString('en-US')} | ${peakMb.toFixed(0)} MB | ${rows.toLocaleString('en-US')}${rows === PLANTS ? ' (all)' : ' (MISMATCH)'} |`,
      );
    }
  }
  const report = out.join('\n');
  console.log(report);
  const allRows = runs.every(({ rows }) => rows === PLANTS);
  if (allRows)
    console.log(`\nsaved to ${writeResult('pnpm bench:import', report, POSTGRES ? 'import-postgres' : 'import')}`);
  else process.exitCode = 1;
}

async function tombstoneComparison(file) {
  const { markdown, ok } = await compareWithTombstones({
    file,
    plants: PLANTS,
    tombstones: TOMBSTONES,
    rounds: ROUNDS,
    log: (line) => process.stderr.write(line),
    io: { freshDatabase, runImport, count: countRows, discard: discardDatabase, generatedId },
  });
  const engine = POSTGRES ? 'PostgreSQL' : 'SQLite (WAL, synchronous=FULL)';
  const report = [
    `\nImport into a store holding tombstones: ${PLANTS.toLocaleString('en-US')} plants, ${engine}, ${ROUNDS} round(s)`,
    `${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}, batch size ${BATCH_SIZE || 'default (1000)'}\n`,
    markdown,
  ].join('\n');
  console.log(report);
  if (!ok) {
    process.exitCode = 1;
    return;
  }
  const variant = `import-tombstones${POSTGRES ? '-postgres' : ''}`;
  console.log(`\nsaved to ${writeResult('pnpm bench:import', report, variant)}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void cleanup().then(() => process.exit(130)));
try {
  await main();
} catch (error) {
  console.error(`bench: ${error.message}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
