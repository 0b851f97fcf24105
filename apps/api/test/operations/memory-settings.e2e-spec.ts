import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';

const MIB = 1024 * 1024;

/** One gauge of prom-client's default metrics, read from GET /metrics. */
async function heapSpaceSize(url: string, space: string): Promise<number> {
  const text = await (await fetch(new URL('/metrics', url))).text();
  const match = new RegExp(`^nodejs_heap_space_size_total_bytes\\{space="${space}"\\} (\\d+)`, 'm').exec(text);
  if (!match) throw new Error(`no heap size for the ${space} space in /metrics`);
  return Number(match[1]);
}

// The server sets its V8 memory settings itself (apps/api/src/v8-memory.ts), so a bare
// `node apps/api/dist/main.js` runs with them. Without them V8 starts the young generation at
// 32 MiB, all of it resident under load.
describe('memory settings of the built server', () => {
  let dir: string;
  let server: BuiltServer | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plantstore-memory-'));
  });
  afterEach(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the young generation within 16 MiB when started as a bare node process', async () => {
    server = await startBuiltServer({ DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}` });
    expect(await heapSpaceSize(server.url, 'new')).toBeLessThanOrEqual(16 * MIB);
  });

  it('leaves the young generation to the operator who sets it on the command line', async () => {
    server = await startBuiltServer({
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      NODE_OPTIONS: '--max-semi-space-size=32',
    });
    expect(await heapSpaceSize(server.url, 'new')).toBeGreaterThan(16 * MIB);
  });
});
