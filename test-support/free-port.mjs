import { createServer } from 'node:net';

// The one free-port helper of the repository: the test suites, the benches and the client's
// type generator all take their ports here (plain JavaScript, so that node runs it as it is).
//
// Below Linux's ephemeral range (32768 and up), so no outgoing connection holds one of these
// ports, and one slice per jest worker, so two workers never hand out the same port. With
// "bind port 0, note it, release it", another worker could be given the same port before the
// first server listened on it; that server's start then failed while the readiness probe was
// answered by the other worker's server (a 401 from a database that never saw the token).
// TEST_FIRST_PORT moves the whole range, for two checkouts tested at once on one machine.
// A process outside jest (a bench, the generator) takes the first slice.
const FIRST_PORT = Number(process.env['TEST_FIRST_PORT'] ?? 20_000);
const PORTS_PER_WORKER = 1_500;
const workerSlice = Math.max(0, Number(process.env['JEST_WORKER_ID'] ?? 1) - 1) % 8;
const sliceStart = FIRST_PORT + workerSlice * PORTS_PER_WORKER;
let next = 0;

/**
 * A TCP port on the loopback no other caller in this process was given and nothing listens on
 * now. The servers under test cannot report the port they got for PORT=0 except in their log,
 * so the port is chosen here.
 *
 * @returns {Promise<number>}
 */
export async function freePort() {
  for (let tried = 0; tried < PORTS_PER_WORKER; tried++) {
    const port = sliceStart + (next++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${sliceStart}–${sliceStart + PORTS_PER_WORKER - 1}`);
}

/**
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function canListen(port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}
