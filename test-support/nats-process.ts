import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportSkipped } from './skipped.js';
import { freePort } from './free-port.mjs';

export const NATS_SERVER = '/usr/sbin/nats-server';

export interface NatsProcess {
  readonly url: string;
  /** Stops the server by its PID (SIGTERM) and waits for it to exit; its JetStream store stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same store. */
  restart(): Promise<void>;
  /** Stops it and removes its store. */
  remove(): Promise<void>;
}

/**
 * Whether the NATS suites named in `what` can run here; when not, they are added to the run's
 * list of what was skipped. In CI a missing server is a failure.
 */
export function natsPresent(what = 'plant event suites (relay to NATS JetStream, example consumer)'): boolean {
  if (existsSync(NATS_SERVER)) return true;
  if (process.env['CI'] === 'true') throw new Error(`${NATS_SERVER} is missing in CI`);
  reportSkipped(what, `install ${NATS_SERVER} (apt-get install nats-server)`);
  return false;
}

/**
 * A NATS server with JetStream of the test's own, on a free loopback port with its own store,
 * so it can be stopped and started without touching the machine's shared NATS.
 *
 * Started (and restarted) means this process listens: it wrote its ports file. A port that
 * merely accepts may be another server's, taken while this one was stopped (another test, or
 * another checkout's run), and a relay pointed at it would publish one store's plants into the
 * other's stream under event ids of its own.
 */
export async function startNatsProcess(): Promise<NatsProcess> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'plantstore-nats-'));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async (): Promise<void> => {
    const started = spawn(
      NATS_SERVER,
      ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store, '--ports_file_dir', store],
      { stdio: 'ignore' },
    );
    child = started;
    exited = new Promise((done) => started.once('exit', () => done()));
    const listening = join(store, `nats-server_${started.pid}.ports`);
    const deadline = Date.now() + 10_000;
    while (!existsSync(listening)) {
      if (started.exitCode !== null)
        throw new Error(`nats-server on port ${port} exited with ${started.exitCode}: is another server on it?`);
      if (Date.now() > deadline) {
        started.kill('SIGKILL');
        throw new Error(`nats-server on port ${port} did not start within 10 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async (): Promise<void> => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid!, 'SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    restart: start,
    async remove() {
      await stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
