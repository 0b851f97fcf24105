// The relay's broker for `pnpm bench --against`: a nats-server of this run's own, JetStream
// with its store on tmpfs (so that the broker's disk is not what is compared), on a free port
// of the loopback, stopped at the end of the run; pinned to neither CPU, its CPU not counted.
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../test-support/free-port.mjs';
import { sleep, track } from './processes.mjs';

/** Starts nats-server with JetStream stored under `tmp`; its URL once it accepts connections. */
export async function startNats(tmp) {
  const port = await freePort();
  const child = track(
    spawn('nats-server', ['-js', '-sd', join(tmp, 'jetstream'), '-a', '127.0.0.1', '-p', String(port)], {
      stdio: 'ignore',
    }),
    'nats-server',
  );
  child.on('error', () => {}); // no binary: the wait below fails with the reason
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    if (child.exitCode !== null) break;
    if (await accepts(port)) return `nats://127.0.0.1:${port}`;
  }
  throw new Error('nats-server (JetStream) did not start: is it installed? The relay scenario needs it');
}

function accepts(port) {
  return new Promise((resolveAccepts) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => resolveAccepts(socket.destroy() && true));
    socket.once('error', () => resolveAccepts(false));
  });
}
