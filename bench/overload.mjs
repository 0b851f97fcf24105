// `pnpm bench:overload` (run after `pnpm build`): the overload scenario against the built
// server. N connections (3,000 by default) each send a valid POST /plants whose 64 KiB body is
// complete but for its last byte; then all send that byte together. Meanwhile /healthz is
// probed every 20 ms on fresh connections and the server's RSS is sampled. Optionally SIGTERM
// is sent right after the last bytes, to measure the time to exit.
//
// Prints a summary; with --json, one JSON line (used by the e2e test that asserts the
// behaviour). Targets 127.0.0.1 only; bounded in count and time; cleans up after itself.
//
//   node bench/overload.mjs [--connections 3000] [--sigterm] [--json]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { freePort } from '../test-support/free-port.mjs';
import { probe } from './http-probe.mjs';
import { writeResult } from './results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '3000' },
    'body-bytes': { type: 'string', default: '65536' },
    'shutdown-timeout-ms': { type: 'string', default: '10000' },
    sigterm: { type: 'boolean', default: false },
    // `baseline`: bench/baseline-server.mjs (bare node:http, same shedding limit) instead.
    server: { type: 'string', default: 'project' },
    json: { type: 'boolean', default: false },
  },
});
const CONNECTIONS = Number(values.connections);
const BODY_BYTES = Number(values['body-bytes']);
const SHUTDOWN_TIMEOUT_MS = Number(values['shutdown-timeout-ms']);
const HARD_LIMIT_MS = 120_000;
/** Wall-clock milliseconds, comparable with the prober thread's. */
const now = () => performance.timeOrigin + performance.now();

const dir = mkdtempSync(join(os.tmpdir(), 'plantstore-overload-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`, LOG_LEVEL: 'warn' };
let server;
const hardLimit = setTimeout(() => finish(new Error(`overload bench exceeded ${HARD_LIMIT_MS} ms`)), HARD_LIMIT_MS);

function cli(args) {
  const run = spawnSync(process.execPath, [join(ROOT, 'apps/cli/dist/main.js'), ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`plantstore ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

function samplesMax(samples) {
  return samples.length === 0 ? NaN : Math.max(...samples.map((h) => h.ms));
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      rss: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024,
      hwm: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024,
    };
  } catch {
    return undefined;
  }
}

function bodyFor(id) {
  const head = `{"id": ${id}, "name": "overload ${id}", "pad": "`;
  return head + 'x'.repeat(BODY_BYTES - head.length - 2) + '"}';
}

/** Opens one connection and sends everything but the body's last byte; `release()` sends it. */
function heldRequest(port, token, id) {
  const body = bodyFor(id);
  const result = { id, status: 0, code: 0, ending: 'pending' };
  let text = '';
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', (error) => (result.ending = error.code ?? 'error'));
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  const closed = new Promise((done) =>
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      result.status = match ? Number(match[1]) : 0;
      result.code = Number(/"error":(\d+)/.exec(text)?.[1] ?? 0);
      result.retryAfter = /\r\nretry-after: /i.test(text);
      if (result.ending === 'pending') result.ending = 'closed';
      done(result);
    }),
  );
  const written = new Promise((done) => {
    socket.on('connect', () => {
      const head = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      socket.write(head + body.slice(0, -1), () => done());
    });
    socket.on('close', () => done());
  });
  return { written, closed, release: () => socket.writable && socket.write(body.slice(-1)) };
}

async function main() {
  const { token } = JSON.parse(cli(['token', 'create', '--name', 'overload', '--json']).trim().split('\n').at(-1));
  const port = await freePort();
  // Extra node flags for the server only, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS || '').split(/\s+/).filter(Boolean);
  const bare = values.server === 'baseline';
  server = spawn(
    process.execPath,
    [...nodeArgs, join(ROOT, bare ? 'bench/baseline-server.mjs' : 'apps/api/dist/main.js')],
    {
      env: {
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
        SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT_MS),
        AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
        BASELINE_TOKEN: token,
        BASELINE_MAX_IN_FLIGHT: process.env.MAX_REQUESTS_IN_FLIGHT ?? '256',
      },
      stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((done) => server.once('exit', (code, signal) => done({ code, signal, at: now() })));
  for (let i = 0; ; i++) {
    if ((await probe(port, '/healthz'))[0] === 200) break;
    if (i > 200) throw new Error('the server did not start');
    await new Promise((wait) => setTimeout(wait, 50));
  }
  const baseline = rssMb(server.pid);

  // /healthz is probed from a worker thread (its own event loop); RSS is sampled here.
  const prober = new Worker(new URL('./health-prober.mjs', import.meta.url), {
    workerData: { port, path: '/healthz' },
  });
  const probed = new Promise((done, fail) => {
    prober.once('message', done);
    prober.once('error', fail);
  });
  let sampling = true;
  let peakRss = 0;
  const rssSampler = (async () => {
    while (sampling) {
      const memory = rssMb(server.pid);
      if (memory) peakRss = Math.max(peakRss, memory.rss);
      await new Promise((wait) => setTimeout(wait, 20));
    }
  })();

  const requests = Array.from({ length: CONNECTIONS }, (_, i) => heldRequest(port, token, i + 1));
  const floodAt = performance.now();
  await Promise.all(requests.map((r) => r.written));
  if (process.env.BENCH_OVERLOAD_TRACE) console.error(`flood written in ${Math.round(performance.now() - floodAt)} ms`);
  await new Promise((wait) => setTimeout(wait, 500));
  const releasedAt = now();
  for (const r of requests) r.release();
  let sigtermAt;
  if (values.sigterm) {
    sigtermAt = now();
    server.kill('SIGTERM');
  }
  const results = await Promise.all(requests.map((r) => r.closed));
  const answeredMs = now() - releasedAt;
  await new Promise((wait) => setTimeout(wait, 200));
  sampling = false;
  prober.postMessage('stop');
  const [health] = await Promise.all([probed, rssSampler]);
  await prober.terminate();
  const hwm = rssMb(server.pid)?.hwm;
  if (!values.sigterm) {
    sigtermAt = now();
    server.kill('SIGTERM');
  }
  const exit = await exited;
  const rows = cli(['plants', 'export'])
    .split('\n')
    .filter(Boolean)
    .map((line) => /"id":(-?\d+)/.exec(line)[1]);

  const statuses = {};
  for (const r of results) {
    const key = r.status === 0 ? `no response (${r.ending})` : String(r.status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const ok = results.filter((r) => r.status === 200).map((r) => String(r.id));
  // Once SIGTERM is sent the probes are meant to fail (503, then refused): only those answered before count.
  const beforeSigterm = health.filter((h) => h.sentAt + h.ms < sigtermAt);
  const latencies = beforeSigterm.map((h) => h.ms).sort((a, b) => a - b);
  // While the connections are opened and write their bodies, and once the last bytes are sent.
  const duringBurst = beforeSigterm.filter((h) => h.sentAt < releasedAt);
  const afterRelease = beforeSigterm.filter((h) => h.sentAt >= releasedAt);
  if (process.env.BENCH_OVERLOAD_TRACE)
    for (const h of beforeSigterm)
      if (h.ms > 50)
        console.error(`slow probe at ${Math.round(h.sentAt - releasedAt)} ms from release: ${Math.round(h.ms)} ms`);
  const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    connections: CONNECTIONS,
    bodyBytes: BODY_BYTES,
    statuses,
    shedWith50301AndRetryAfter: results.filter((r) => r.status === 503 && r.code === 50301 && r.retryAfter).length,
    otherErrors: results
      .filter((r) => r.status !== 0 && r.status !== 200 && !(r.status === 503 && r.code === 50301))
      .map((r) => `${r.status}/${r.code}`),
    okWithoutRow: ok.filter((id) => !rows.includes(id)).length,
    rows: rows.length,
    allAnsweredMs: Math.round(answeredMs),
    health: {
      probes: beforeSigterm.length,
      failed: beforeSigterm.filter((h) => h.status !== 200).length,
      p50Ms: pick(0.5),
      p99Ms: pick(0.99),
      maxMs: latencies.at(-1) ?? NaN,
      maxMsDuringBurst: samplesMax(duringBurst),
      maxMsAfterRelease: samplesMax(afterRelease),
    },
    rssMb: { atRest: baseline?.rss, peakSampled: peakRss, peakVmHWM: hwm },
    shutdown: {
      sigtermDuringLoad: values.sigterm,
      exitCode: exit.code,
      signal: exit.signal,
      msFromSigterm: Math.round(exit.at - sigtermAt),
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
    },
  };
}

let finished = false;
function finish(error, summary) {
  if (finished) return;
  finished = true;
  clearTimeout(hardLimit);
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  if (error) {
    console.error(`bench:overload failed: ${error.stack ?? error}`);
    process.exit(1);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    const out = [];
    const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : '-');
    out.push(
      `overload (${values.server} server): ${summary.connections} connections × ${summary.bodyBytes}-byte bodies released together`,
    );
    out.push(
      `  answers: ${Object.entries(summary.statuses)
        .map(([k, v]) => `${k}×${v}`)
        .join(
          ', ',
        )}; all answered in ${summary.allAnsweredMs} ms; rows ${summary.rows}, 200s without a row ${summary.okWithoutRow}`,
    );
    out.push(
      `  /healthz: ${summary.health.probes} probes, ${summary.health.failed} failed, p50 ${f(summary.health.p50Ms)} ms, p99 ${f(summary.health.p99Ms)} ms, max ${f(summary.health.maxMs)} ms (target ≤ 100 ms); worst while the connections open ${f(summary.health.maxMsDuringBurst)} ms, after the release ${f(summary.health.maxMsAfterRelease)} ms`,
    );
    out.push(
      `  server RSS: ${f(summary.rssMb.atRest)} MB at rest, peak ${f(summary.rssMb.peakSampled)} MB sampled, VmHWM ${f(summary.rssMb.peakVmHWM)} MB (target < 250 MB)`,
    );
    out.push(
      `  SIGTERM${summary.shutdown.sigtermDuringLoad ? ' during the load' : ' after'}: exit ${summary.shutdown.exitCode} after ${summary.shutdown.msFromSigterm} ms (SHUTDOWN_TIMEOUT ${summary.shutdown.shutdownTimeoutMs} ms)`,
    );
    const report = out.join('\n');
    console.log(report);
    console.log(
      `saved to ${writeResult(`pnpm bench:overload (${values.server} server)`, report, `overload-${values.server}`)}`,
    );
  }
  process.exit(0);
}

main().then(
  (summary) => finish(undefined, summary),
  (error) => finish(error),
);
