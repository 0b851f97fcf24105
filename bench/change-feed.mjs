// `pnpm bench:changes` (run after `pnpm build`): the change feed, GET /plants/changes. See bench/README.md.
//
// 1. A store of BENCH_FEED_PLANTS plants (default 1,000,000, stored by the CLI's import): one
//    follower reads the whole feed from the start as JSON pages of 1000, beside a reader paging
//    GET /plants (limit 1000, following Link) through the same store; time and server CPU each,
//    BENCH_FEED_READ_ROUNDS times (default 1), taking turns. BENCH_FEED_PART=read stops there.
// 2. On a fresh server (its peak RSS its own): BENCH_FEED_STREAMS streams (default 1000) open at
//    the feed's end while BENCH_FEED_CREATES creates (default 500) run at BENCH_FEED_RATE a second
//    (default 50); every stream must receive every create. The delay of each delivery is
//    measured from the moment its create was sent (an upper bound of commit → stream); the
//    server's CPU per delivered change is the phase's CPU less the same creates' CPU with no
//    stream open, over the deliveries. SQLite on a temp file, or DATABASE_URL=postgres://…
//    (a new database on that server). The table is printed and saved under bench/results/.
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { startBuiltServer } from '../test-support/built-server.mjs';
import { createPostgresDatabase } from '../test-support/postgres.mjs';
import { cpuUs, rssKb, startRssSampler } from './processes.mjs';
import { writeResult } from './results.mjs';
import { importPlants } from './seed-plants.mjs';
import { spawnSync } from 'node:child_process';
import { ROOT } from './settings.mjs';

const PLANTS = Number(process.env.BENCH_FEED_PLANTS || 1_000_000);
const STREAMS = Number(process.env.BENCH_FEED_STREAMS || 1_000);
const CREATES = Number(process.env.BENCH_FEED_CREATES || 500);
const RATE = Number(process.env.BENCH_FEED_RATE || 50);
const DATABASE_URL = process.env.DATABASE_URL || '';
// Rounds of the read part, feed and list taking turns (who goes first alternates), so that a
// machine loaded by others weighs on both alike; `BENCH_FEED_PART=read` skips the streams part.
const READ_ROUNDS = Number(process.env.BENCH_FEED_READ_ROUNDS || 1);
const READ_ONLY = process.env.BENCH_FEED_PART === 'read';
const SERVER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MAX_CHANGE_STREAMS: String(Math.max(STREAMS, 1)),
  MAX_REQUESTS_IN_FLIGHT: String(Math.max(STREAMS * 2, 256)),
  MAX_REQUESTS_IN_FLIGHT_PER_CLIENT: String(Math.max(STREAMS * 2, 256)),
  MAX_CONNECTIONS: String(Math.max(STREAMS * 2, 4096)),
  LOG_LEVEL: 'warn',
};

/**
 * Ready once this very process listens on its port: on a machine where other servers start and
 * stop, a port found free may be taken before the server binds it, and answering HTTP on it
 * would then prove only that someone else's server runs there.
 */
function listensItself(server) {
  const port = `:${server.port.toString(16).toUpperCase().padStart(4, '0')} `;
  const listening = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
      readFileSync(table, 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[1]?.endsWith(port.trim()) && fields[3] === '0A')
        .map((fields) => `socket:[${fields[9]}]`),
    ),
  );
  try {
    return readdirSync(`/proc/${server.pid}/fd`).some((fd) => {
      try {
        return listening.has(readlinkSync(`/proc/${server.pid}/fd/${fd}`));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const start = (env) => startBuiltServer({ ...SERVER_ENV, ...env }, { ready: listensItself });

const tmp = mkdtempSync(join(os.tmpdir(), 'plantstore-bench-feed-'));
const databases = [];

async function freshDatabase(name) {
  if (!DATABASE_URL.startsWith('postgres')) return `sqlite:${join(tmp, `${name}.sqlite`)}`;
  const database = await createPostgresDatabase(DATABASE_URL, `plantstore_bench_feed_${name}`);
  databases.push(database);
  return database.url;
}

function createToken(databaseUrl) {
  const out = spawnSync(
    process.execPath,
    [join(ROOT, 'apps/cli/dist/main.js'), 'token', 'create', '--name', 'bench', '--json'],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`token create failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)).token;
}

async function getJson(url, token) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text}`);
  return { text, link: res.headers.get('link') };
}

/** A page's JSON with its int64 ids kept exact, as a follower reads it. */
const parseExact = (text) => JSON.parse(text.replace(/"id":(-?\d+)/g, '"id":"$1"'));

/** This process's CPU µs: the reader's own work (the same parse for both), beside the server's. */
const readerCpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** Reads the whole feed as JSON pages of 1000; answers entries, pages, ms and the server's and reader's CPU ms. */
async function readWholeFeed(server, token) {
  const cpu = cpuUs(server.pid);
  const readerCpu = readerCpuUs();
  const started = performance.now();
  let entries = 0;
  let pages = 0;
  let after = '';
  for (;;) {
    const { text } = await getJson(`${server.url}/plants/changes?limit=1000${after}`, token);
    const page = parseExact(text);
    pages++;
    entries += page.changes.length;
    after = `&after=${page.next}`;
    if (page.changes.length === 0) break;
  }
  const ms = performance.now() - started;
  return { entries, pages, ms, cpuMs: (cpuUs(server.pid) - cpu) / 1000, readerMs: (readerCpuUs() - readerCpu) / 1000 };
}

/** Pages GET /plants by its Link header, each page parsed as the feed's is; same figures. */
async function pageTheList(server, token) {
  const cpu = cpuUs(server.pid);
  const readerCpu = readerCpuUs();
  const started = performance.now();
  let entries = 0;
  let pages = 0;
  let path = '/plants?limit=1000';
  while (path !== undefined) {
    const { text, link } = await getJson(`${server.url}${path}`, token);
    pages++;
    entries += parseExact(text).length;
    path = link === null ? undefined : /^<([^>]+)>/.exec(link)?.[1];
  }
  const ms = performance.now() - started;
  return { entries, pages, ms, cpuMs: (cpuUs(server.pid) - cpu) / 1000, readerMs: (readerCpuUs() - readerCpu) / 1000 };
}

/** Opens a stream after `after`; counts events and records when each plant id arrived. */
function openStream(server, token, after, arrivals) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/plants/changes?after=${after}`,
      { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        const stream = { received: 0, close: () => res.destroy() };
        let buffer = '';
        res.setEncoding('utf8').on('data', (chunk) => {
          const now = performance.now();
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /\ndata: \{"id":(\d+)/.exec(block)?.[1];
            if (id === undefined) continue;
            stream.received++;
            arrivals.push([Number(id), now]);
          }
        });
        resolve(stream);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Creates `count` plants from `first` at `rate` a second; answers when each was sent, by id. */
async function createAtRate(server, token, first, count, rate) {
  const sentAt = new Map();
  const started = performance.now();
  const inFlight = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = first + i;
    sentAt.set(id, performance.now());
    inFlight.push(
      fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"id":${id},"name":"live ${id}"}`,
      }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`create ${id}: ${res.status}`);
      }),
    );
  }
  await Promise.all(inFlight);
  return sentAt;
}

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const loadAtStart = os.loadavg();
  const rows = [];
  // 1. Reading a big store from the start.
  const bigUrl = await freshDatabase('big');
  if (PLANTS > 0) await importPlants({ databaseUrl: bigUrl, first: 1, count: PLANTS, dir: tmp });
  const bigToken = createToken(bigUrl);
  const server = await start({ DATABASE_URL: bigUrl });
  try {
    for (let round = 1; round <= READ_ROUNDS; round++) {
      const readers = [
        ['GET /plants/changes from the start (JSON pages of 1000)', readWholeFeed],
        ['GET /plants paged by Link (limit 1000)', pageTheList],
      ];
      if (round % 2 === 0) readers.reverse();
      for (const [what, read] of readers) {
        const r = await read(server, bigToken);
        rows.push(
          `| ${round} | ${what} | ${r.entries} | ${r.pages} | ${(r.ms / 1000).toFixed(1)} s | ${Math.round(r.entries / (r.ms / 1000))} | ${(r.cpuMs / 1000).toFixed(1)} s | ${((r.cpuMs * 1000) / Math.max(1, r.entries)).toFixed(1)} µs | ${((r.readerMs * 1000) / Math.max(1, r.entries)).toFixed(1)} µs |`,
        );
      }
    }
  } finally {
    await server.stop();
  }

  const streams = READ_ONLY ? undefined : await streamsUnderCreates();
  const markdown = [
    `Load average of the machine at the start: ${loadAtStart.map((x) => x.toFixed(1)).join(', ')} (1, 5, 15 min); the delays below include the create's own latency.`,
    '',
    `## Reading the whole store (${PLANTS} plants)`,
    '',
    '| round | reader | entries | pages | time | entries/s | server CPU | server CPU per entry | reader CPU per entry |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    ...(streams === undefined ? [] : ['', ...streams.lines]),
  ].join('\n');
  console.log(markdown);
  console.log(`saved to ${writeResult('Change feed: reading the store, streams under creates', markdown, 'changes')}`);
  return streams === undefined || streams.complete === STREAMS ? 0 : 1;
}

/** 2. Streams while creates run, on a fresh server; first the same creates with no stream. */
async function streamsUnderCreates() {
  const liveUrl = await freshDatabase('live');
  const liveToken = createToken(liveUrl);
  const server = await start({ DATABASE_URL: liveUrl });
  const peakRss = startRssSampler(server.pid);
  let live;
  try {
    let cpu = cpuUs(server.pid);
    await createAtRate(server, liveToken, 1, CREATES, RATE);
    const createsAloneMs = (cpuUs(server.pid) - cpu) / 1000;
    const next = await endOf(server, liveToken);
    const arrivals = [];
    const streams = [];
    for (let i = 0; i < STREAMS; i++) streams.push(await openStream(server, liveToken, next, arrivals));
    const rssWithStreams = rssKb(server.pid).total;
    cpu = cpuUs(server.pid);
    const sentAt = await createAtRate(server, liveToken, 1_000_001, CREATES, RATE);
    const deadline = performance.now() + 30_000;
    while (streams.some((s) => s.received < CREATES) && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const phaseMs = (cpuUs(server.pid) - cpu) / 1000;
    const complete = streams.filter((s) => s.received === CREATES).length;
    const delays = arrivals.map(([id, at]) => at - sentAt.get(id)).sort((a, b) => a - b);
    const delivered = arrivals.length;
    for (const s of streams) s.close();
    live = {
      complete,
      delivered,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: delays.at(-1),
      cpuPerDeliveryUs: ((phaseMs - createsAloneMs) * 1000) / Math.max(1, delivered),
      createsAloneMs,
      phaseMs,
      rssWithStreams,
    };
  } finally {
    await server.stop();
  }
  const peak = peakRss();
  const lines = [
    `## ${STREAMS} streams while ${CREATES} creates run at ${RATE}/s`,
    '',
    '| figure | value |',
    '| --- | --- |',
    `| streams that received every create | ${live.complete} of ${STREAMS} |`,
    `| deliveries | ${live.delivered} (expected ${STREAMS * CREATES}) |`,
    `| delay send → stream, p50 / p99 / max | ${live.p50.toFixed(0)} / ${live.p99.toFixed(0)} / ${live.max.toFixed(0)} ms |`,
    `| server CPU: creates alone / with the streams | ${(live.createsAloneMs / 1000).toFixed(2)} / ${(live.phaseMs / 1000).toFixed(2)} s |`,
    `| server CPU per delivered change (less the creates' own) | ${live.cpuPerDeliveryUs.toFixed(1)} µs |`,
    `| RSS with the streams open / peak | ${Math.round(live.rssWithStreams / 1024)} / ${Math.round(peak.total / 1024)} MB |`,
  ];
  return { complete: live.complete, lines };
}

/** The cursor at the feed's current end. */
async function endOf(server, token) {
  let after = '';
  for (;;) {
    const page = JSON.parse((await getJson(`${server.url}/plants/changes?limit=1000${after}`, token)).text);
    if (page.changes.length === 0) return page.next;
    after = `&after=${page.next}`;
  }
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`bench: ${error.stack || error.message}`);
} finally {
  for (const database of databases) await database.drop().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
