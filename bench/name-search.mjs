// The name-search scenario of `pnpm bench` (BENCH_ROUTES=…,search; bench/run.mjs): GET
// /plants?name=… against the plain list, at one client, on a store of BENCH_SEARCH_PLANTS
// (1,000,000) plants with names like a catalogue's (writeNamedPlants), stored by the real CLI
// import. Each kind of request is timed one at a time, first pages and later pages (the walk
// follows `Link rel="next"` from a cursor spread over the ids), BENCH_REPEAT rounds, each kind
// in turn in every round. Reported per kind: p50, p99 and max latency, and whether p99 is within
// the contract's 100 ms.
//
// Also runnable alone against a server that already holds such a store (build it once, reuse it):
//   node bench/name-search.mjs write FILE [COUNT]       the NDJSON to import (plantstore plants import FILE)
//   node bench/name-search.mjs measure URL [ROUNDS]     the scenario; the token in BENCH_LOAD_TOKEN
//   node bench/name-search.mjs upgrade DATABASE_URL     the migration's time on that store: undone, then run
//                                                      again (what an upgrade of a store of that size takes)
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fmt } from './report.mjs';
import { writeResult } from './results.mjs';
import { ROOT } from './settings.mjs';

export const SEARCH_PLANTS = Number(process.env.BENCH_SEARCH_PLANTS || 1_000_000);
export const SEARCH_P99_TARGET_MS = 100;
/** Page size of every request: the list's default. */
const LIMIT = 100;
/** Requests of each kind per round (first pages), and pages walked after each of them (later pages). */
const FIRST_PAGES = 20;
const LATER_PAGES = 4;

// Genera (some with accents, as a catalogue in French or German has them) and epithets: each
// name is `Genus epithet n°i`, so a genus finds 1/61 of the store, a genus and an epithet
// 1/(61 × 59), the number one plant.
const GENERA = (
  'Monstera Ficus Pilea Calathea Sansevieria Epipremnum Zamioculcas Echeveria Aloe Haworthia Crassula ' +
  'Strelitzia Philodendron Maranta Peperomia Spathiphyllum Chlorophytum Dracaena Alocasia Begonia Hoya ' +
  'Senecio Nephrolepis Adiantum Asplenium Platycerium Kalanchoe Opuntia Fougère Érable Chêne Hêtre Frêne ' +
  'Bouleau Tilleul Glycine Lierre Rosier Œillet Muguet Pâquerette Bégonia Géranium Hortensia Lavande ' +
  'Romarin Thym Sauge Menthe Basilic Ciboulette Persil Aneth Coriandre Estragon Fenouil Straße Weißdorn ' +
  'Gänseblümchen Löwenzahn Maiglöckchen'
).split(' ');
const EPITHETS = (
  'deliciosa lyrata peperomioides orbifolia trifasciata aureum zamiifolia elegans vera fasciata ovata ' +
  'reginae hederaceum leuconeura obtusifolia wallisii comosum marginata zebrina maculata carnosa ' +
  'rowleyanus exaltata raddianum nidus bifurcatum blossfeldiana microdasys mâle aigle royale champêtre ' +
  'sylvestris officinalis vulgaris alba rubra nigra japonica sinensis chinensis europaea americana ' +
  'montana maritima palustris arvensis pratensis hortensis minor major gigantea nana pendula repens ' +
  'scandens variegata aurea argentea'
).split(' ');

/** The i-th plant's name. */
export function namedPlant(i) {
  return `${GENERA[i % GENERA.length]} ${EPITHETS[Math.floor(i / GENERA.length) % EPITHETS.length]} n°${i}`;
}

/** Writes `count` plants as NDJSON for `plantstore plants import`: ids 1…count, tags of 97 families. */
export async function writeNamedPlants(path, count = SEARCH_PLANTS) {
  const out = createWriteStream(path);
  let text = '';
  for (let i = 0; i < count; i++) {
    text += `${JSON.stringify({ id: i + 1, name: namedPlant(i), tag: `family ${i % 97}` })}\n`;
    if (text.length > 1 << 20) {
      if (!out.write(text)) await once(out, 'drain');
      text = '';
    }
  }
  out.end(text);
  await once(out, 'finish');
}

/**
 * The kinds of request timed, from the plain list to the rarest text. `query` is the query
 * string of a first page; what each finds in a store of writeNamedPlants' plants is its label.
 */
export const SEARCH_KINDS = [
  { kind: 'list', query: '', label: 'plain list (no name)' },
  { kind: 'common', query: 'name=FOUGERE', label: '`FOUGERE`: a genus, 1 plant in 61, accent aside' },
  { kind: 'pair', query: 'name=ficus%20lyrata', label: '`ficus lyrata`: 1 plant in 3,599' },
  { kind: 'rare', query: 'name=n%C2%B0123457', label: '`n°123457`: one plant' },
  { kind: 'none', query: 'name=zzyzx', label: '`zzyzx`: no plant' },
  { kind: 'tagged', query: 'name=weissdorn&tags=family%205', label: '`weissdorn` (ß as ss) with a tag: 1 in 5,917' },
  { kind: 'short', query: 'name=ra', label: '`ra`: two characters, no trigram (a scan by id)' },
  { kind: 'short-rare', query: 'name=%C5%93i', label: '`œi`: two characters, 1 plant in 61 (a scan by id)' },
];

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One GET, timed; its body's plant count and the next link's target. */
async function timedGet(url, token, path) {
  const started = process.hrtime.bigint();
  const response = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 200)}`);
  const link = response.headers.get('link');
  const next = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
  return { ms, count: (text.match(/"id":/g) ?? []).length, next };
}

/**
 * Runs the scenario against `url` (a server holding `plants` plants with ids 1…plants):
 * per kind, FIRST_PAGES first pages per round, each from a cursor spread over the ids (the
 * first from no cursor), each followed by LATER_PAGES pages by their next links.
 */
export async function measureNameSearch({ url, token, plants = SEARCH_PLANTS, rounds = 3, log = () => {} }) {
  const timings = new Map(SEARCH_KINDS.map(({ kind }) => [kind, { first: [], later: [], found: 0 }]));
  for (const { query } of SEARCH_KINDS) await timedGet(url, token, `/plants?${query}`); // warm-up
  for (let round = 1; round <= rounds; round++) {
    log(`bench: name search round ${round}/${rounds}, ${SEARCH_KINDS.length} kinds at one client\n`);
    for (const { kind, query } of SEARCH_KINDS) {
      const times = timings.get(kind);
      for (let i = 0; i < FIRST_PAGES; i++) {
        const after = i === 0 ? '' : `&after=${Math.floor((plants * i) / FIRST_PAGES) + round}`;
        let page = await timedGet(url, token, `/plants?${query}${query ? '&' : ''}limit=${LIMIT}${after}`);
        times.first.push(page.ms);
        times.found += page.count;
        for (let later = 0; later < LATER_PAGES && page.next !== undefined; later++) {
          page = await timedGet(url, token, page.next);
          times.later.push(page.ms);
        }
      }
    }
  }
  return {
    plants,
    rounds,
    kinds: SEARCH_KINDS.map(({ kind, label }) => {
      const { first, later, found } = timings.get(kind);
      const sorted = (values) => [...values].sort((a, b) => a - b);
      const [f, l] = [sorted(first), sorted(later)];
      return {
        kind,
        label,
        first: { n: f.length, p50: percentile(f, 50), p99: percentile(f, 99), max: f.at(-1) ?? Number.NaN },
        later: { n: l.length, p50: percentile(l, 50), p99: percentile(l, 99), max: l.at(-1) ?? Number.NaN },
        found,
      };
    }),
  };
}

/** The markdown section of the scenario. */
export function nameSearchReport({ plants, rounds, kinds }) {
  const within = (ms) => (ms <= SEARCH_P99_TARGET_MS ? 'yes' : '**no**');
  const out = [
    '',
    `### Name search: GET /plants?name=…, project, one client, ${fmt(plants)} plants`,
    '',
    `- ${rounds} round(s); per kind and round ${FIRST_PAGES} first pages (the first from no cursor, the rest from cursors spread over the ids) of ${LIMIT}, each followed by up to ${LATER_PAGES} later pages by their next links; latency in ms as the client saw it; target p99 ≤ ${SEARCH_P99_TARGET_MS} ms for texts of 3 or more characters`,
    '',
    '| request | first pages p50 | p99 | max | later pages p50 | p99 | max | plants per first page | p99 ≤ 100 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|:---:|',
  ];
  for (const { label, first, later, found } of kinds)
    out.push(
      `| ${label} | ${fmt(first.p50, 1)} | ${fmt(first.p99, 1)} | ${fmt(first.max, 1)} | ${fmt(later.p50, 1)} | ${fmt(later.p99, 1)} | ${fmt(later.max, 1)} | ${fmt(found / first.n, 1)} | ${within(Math.max(first.p99, later.n > 0 ? later.p99 : 0))} |`,
    );
  out.push('');
  return out.join('\n');
}

/** The migration that brought name search: the upgrade undoes it and every later one, then times them. */
const FIRST_MIGRATION = 'AddPlantNameSearch1764288000000';

/** Undoes the name-search migration and those after it on the store at `databaseUrl`, then times them. */
export async function timeUpgrade(databaseUrl) {
  const persistence = createRequire(join(ROOT, 'packages/adapters-persistence/package.json'))(
    '@plantstore/adapters-persistence',
  );
  const dataSource = await persistence.openDataSource(persistence.databaseConfigFor(databaseUrl, ROOT));
  let migrations;
  try {
    const applied = (await dataSource.query('SELECT name FROM migrations ORDER BY id DESC')).map((row) => row.name);
    const through = applied.indexOf(FIRST_MIGRATION);
    if (through < 0) throw new Error(`${FIRST_MIGRATION} is not applied to this store`);
    migrations = applied.slice(0, through + 1).reverse();
    for (let undone = 0; undone <= through; undone++) await dataSource.undoLastMigration();
    const [{ n }] = await dataSource.query('SELECT COUNT(*) AS n FROM plant WHERE deleted_at IS NULL');
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    await dataSource.runMigrations({ transaction: 'each' });
    const cpu = process.cpuUsage(cpuBefore);
    return {
      migrations,
      plants: Number(n),
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    };
  } finally {
    await dataSource.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, target, extra] = process.argv.slice(2);
  if (command === 'upgrade' && target) {
    const engine = target.startsWith('sqlite:') ? 'sqlite' : 'postgres';
    const { migrations, plants, seconds, cpuSeconds } = await timeUpgrade(target);
    const markdown = [
      `### Upgrade: migrations ${migrations.join(', ')} on ${engine}, ${fmt(plants)} live plants`,
      '',
      `- undone, then applied again as a start-up applies it: ${seconds.toFixed(1)} s elapsed, ${cpuSeconds.toFixed(1)} s CPU in this process (${engine === 'sqlite' ? 'SQLite runs in it: all of the work' : 'the keys; the index is built by the PostgreSQL server'}); load average at end ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    ].join('\n');
    console.log(markdown);
    console.log(`saved to ${writeResult('node bench/name-search.mjs upgrade', markdown, `${engine}-search-upgrade`)}`);
  } else if (command === 'write' && target) {
    await writeNamedPlants(target, extra === undefined ? SEARCH_PLANTS : Number(extra));
  } else if (command === 'measure' && target && process.env.BENCH_LOAD_TOKEN) {
    const result = await measureNameSearch({
      url: target,
      token: process.env.BENCH_LOAD_TOKEN,
      rounds: extra === undefined ? 3 : Number(extra),
      log: (line) => process.stderr.write(line),
    });
    const markdown = `${nameSearchReport(result)}\n- load average at end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`;
    console.log(markdown);
    console.log(
      `saved to ${writeResult('node bench/name-search.mjs measure', markdown, process.env.BENCH_RESULT_VARIANT || 'search')}`,
    );
  } else {
    console.error(
      'usage: node bench/name-search.mjs write FILE [COUNT] | BENCH_LOAD_TOKEN=… node bench/name-search.mjs measure URL [ROUNDS] | node bench/name-search.mjs upgrade DATABASE_URL',
    );
    process.exit(2);
  }
}
