// Worker thread of bench/overload.mjs: GET /healthz every 20 ms on a fresh connection and
// time each answer. It has its own event loop, so the latencies it records are the server's,
// not the lag of the load generator's loop while it writes thousands of connections.
import { parentPort, workerData } from 'node:worker_threads';
import { probe } from './http-probe.mjs';

const { port, path } = workerData;
const now = () => performance.timeOrigin + performance.now();
let probing = true;
const samples = [];

parentPort.once('message', () => (probing = false));
while (probing) {
  const sentAt = now();
  const [status, ms] = await probe(port, path);
  samples.push({ status, ms, sentAt });
  await new Promise((wait) => setTimeout(wait, 20));
}
parentPort.postMessage(samples);
