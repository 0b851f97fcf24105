import { DEFAULT_RELAY_OPTIONS, JetStreamPlantEventPublisher, OutboxRelay } from '@plantstore/adapters-messaging';
import { Plant, PlantCreated } from '@plantstore/domain';
import { MemoryOutbox } from '../../../../packages/adapters-messaging/test/support/memory-outbox.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsPresent, startNatsProcess, type NatsProcess } from '../../../../test-support/nats-process.js';
import { startBuiltServer } from '../../../../test-support/built-server.mjs';
import { freePort } from '../../../../test-support/free-port.mjs';

function event(n: number): PlantCreated {
  const parsed = Plant.parse({ id: String(n), name: `plant ${n}` });
  if (!parsed.ok) throw new Error('invalid test plant');
  return PlantCreated.of(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, parsed.plant, new Date(0));
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return condition();
}

// Without nats-server the suite is listed among the skipped at the end of the run (natsPresent).
const describeWithNats = natsPresent() ? describe : describe.skip;

/*
 * The relay with its real publisher against a nats-server of the test's own, with the default
 * timings (5 s publish timeout, backoff doubling to 5 s). What an operator sees after a NATS
 * outage: events flow again within a second of NATS answering, not after a publish timeout or
 * the backoff in progress.
 */
describeWithNats('the PlantCreated relay across a NATS outage', () => {
  let nats: NatsProcess;
  let relay: OutboxRelay | undefined;

  beforeEach(async () => {
    nats = await startNatsProcess();
  });
  afterEach(async () => {
    await relay?.stop();
    await nats.remove();
  });

  it('fails fast while NATS is down and publishes again within a second of it answering', async () => {
    const outbox = new MemoryOutbox();
    const warnings: string[] = [];
    relay = new OutboxRelay(
      outbox,
      () => JetStreamPlantEventPublisher.connect(nats.url),
      { warn: (message) => warnings.push(message), info: () => undefined },
      DEFAULT_RELAY_OPTIONS,
    );
    relay.start();
    outbox.pending.push(event(1));
    expect(await until(() => outbox.pending.length === 0, 10_000)).toBe(true);

    await nats.stop();
    outbox.pending.push(event(2), event(3));
    // Publishes into the dropped connection fail at once (not after the 5 s publish timeout):
    // six failures take the backoff to 3.2 s, the relay sleeping when NATS comes back.
    expect(await until(() => relay!.status.failures >= 6, 15_000)).toBe(true);
    expect(warnings).toHaveLength(1);

    await nats.restart();
    const answering = performance.now();
    expect(await until(() => outbox.pending.length === 0, 10_000)).toBe(true);
    const resumedAfterMs = performance.now() - answering;
    console.log(`relay published again ${resumedAfterMs.toFixed(0)} ms after NATS answered`);
    // The client reconnects every 500 ms (plus jitter); before, the relay slept out its backoff (3.2 s here).
    expect(resumedAfterMs).toBeLessThan(2_000);

    // JetStream acknowledged each event as stored, once (a resent one would count as a duplicate).
    expect(relay.status).toMatchObject({ published: 3, duplicates: 0 });
  }, 60_000);
});

describe('a server whose NATS has never answered', () => {
  it('exits at once on SIGTERM (exit 0), not at its shutdown timeout, having warned once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-nats-never-'));
    // A port nothing listens on: every connection attempt is refused.
    const server = await startBuiltServer({
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      NATS_URL: `nats://127.0.0.1:${await freePort()}`,
      SHUTDOWN_TIMEOUT: '20000',
      LOG_LEVEL: 'info',
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      const signalledAt = performance.now();
      server.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // Before, the client's first-connect timers held the process until SHUTDOWN_TIMEOUT (20 s here).
      expect(performance.now() - signalledAt).toBeLessThan(10_000);
      const lines = server
        .stdout()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { level: string; msg: string });
      expect(lines.filter((line) => line.level === 'warn').map((line) => line.msg)).toEqual([
        'publishing plant events failed, retrying: connection refused',
      ]);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
