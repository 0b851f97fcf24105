import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer } from '../../../../test-support/built-server.mjs';
import { freePort } from '../../../../test-support/free-port.mjs';

/*
 * The relay across a NATS outage, without a server, is the adapter's own suite
 * (packages/adapters-messaging/test/outbox-relay.jetstream.test.ts). Here: what only a process shows.
 */
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
