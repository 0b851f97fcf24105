// Load generator for `pnpm bench`: one autocannon run, started by bench/run.mjs in its own
// process (pinned to another core than the server) so the load does not share the server's
// CPU. Input: one JSON argument. Output: one JSON line on stdout with the figures the driver
// needs. What each request is (a create with a new id by default; reads, list pages, PUTs or
// DELETEs when the config says so) is bench/load-requests.mjs's.
//
//   BENCH_LOAD_TOKEN=pst_… node bench/load.mjs \
//     '{"url":"http://127.0.0.1:3000","connections":16,"durationS":10,"idBase":"123456789","timeoutS":10}'
import autocannon from 'autocannon';
import { requestsFor } from './load-requests.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const url = String(config.url);
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url))
  throw new Error(`load.mjs only targets http://127.0.0.1:<port>, got ${url}`);
const connections = Number(config.connections);
const durationS = Number(config.durationS);
const timeoutS = Number(config.timeoutS ?? 10);
let instance;
const { requests, used, exhausted } = requestsFor(config, () => instance.stop());

instance = autocannon({
  url,
  connections,
  pipelining: 1,
  duration: durationS,
  timeout: timeoutS,
  headers: { authorization: `Bearer ${process.env.BENCH_LOAD_TOKEN}` },
  requests,
});

const result = await instance;
const summary = {
  connections,
  durationS: result.duration,
  completed: result.requests.total,
  sent: result.requests.sent,
  reqPerSec: result.duration > 0 ? result.requests.total / result.duration : 0,
  reqPerSecAvgSamples: result.requests.average,
  latencyMs: {
    p50: result.latency.p50,
    p99: result.latency.p99,
    p99_9: result.latency.p99_9,
    max: result.latency.max,
    mean: result.latency.average,
  },
  ok2xx: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  resets: result.resets,
  statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  idsUsed: String(used()),
  ranOutOfIds: exhausted(),
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
