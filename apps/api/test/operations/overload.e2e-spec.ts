import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const SHUTDOWN_TIMEOUT_MS = 3_000;

interface OverloadSummary {
  statuses: Record<string, number>;
  shedWith50301AndRetryAfter: number;
  otherErrors: string[];
  okWithoutRow: number;
  rows: number;
  health: { probes: number; failed: number; p50Ms: number; p99Ms: number; maxMs: number };
  rssMb: { atRest: number; peakSampled: number; peakVmHWM: number };
  shutdown: { exitCode: number | null; signal: string | null; msFromSigterm: number };
}

/**
 * The overload scenario of `pnpm bench:overload` against the built server: 3,000 connections
 * each holding a 64 KiB create but for its last byte, released together, with SIGTERM sent
 * right after. The bench prints the latency and memory figures; this test holds the behaviour.
 */
describe('overload: 3,000 connections releasing 64 KiB creates together, SIGTERM meanwhile', () => {
  it('sheds what exceeds the limits with 503 or a refused connection, answers every probe, loses nothing it acknowledged, and exits within SHUTDOWN_TIMEOUT', () => {
    const run = spawnSync(
      process.execPath,
      [
        resolve(repositoryRoot, 'bench/overload.mjs'),
        '--json',
        '--sigterm',
        '--connections',
        '3000',
        '--shutdown-timeout-ms',
        String(SHUTDOWN_TIMEOUT_MS),
      ],
      // One token sends the whole flood: let it hold all of MAX_REQUESTS_IN_FLIGHT, so the global bound is what is tested.
      {
        encoding: 'utf8',
        timeout: 150_000,
        maxBuffer: 1 << 24,
        env: { ...process.env, MAX_REQUESTS_IN_FLIGHT_PER_CLIENT: process.env['MAX_REQUESTS_IN_FLIGHT'] ?? '256' },
      },
    );
    // The bench's stderr says why it failed, when it did.
    expect({ status: run.status, stderr: run.stderr.slice(-2_000) }).toEqual({ status: 0, stderr: '' });
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as OverloadSummary;
    console.log(`overload: ${JSON.stringify(summary)}`);

    const answered = Object.entries(summary.statuses);
    expect(answered.every(([status]) => ['200', '503'].includes(status) || status.startsWith('no response'))).toBe(
      true,
    );
    expect(summary.otherErrors).toEqual([]);
    // Shed before its body was read: 503/50301 with Retry-After (or a refused connection).
    expect(summary.statuses['503'] ?? 0).toBe(summary.shedWith50301AndRetryAfter);
    expect(
      (summary.statuses['503'] ?? 0) +
        answered.filter(([s]) => s.startsWith('no response')).reduce((n, [, c]) => n + c, 0),
    ).toBeGreaterThan(0);
    expect(summary.okWithoutRow).toBe(0);
    expect(summary.health.probes).toBeGreaterThan(0);
    expect(summary.health.failed).toBe(0);
    expect(summary.shutdown).toMatchObject({ exitCode: 0, signal: null });
    expect(summary.shutdown.msFromSigterm).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS + 2_000);
  }, 180_000);
});
