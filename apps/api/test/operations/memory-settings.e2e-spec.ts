import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';

const MIB = 1024 * 1024;

/** A variable of a running process's environment, as glibc saw it when the process started. */
function environmentOf(pid: number, name: string): string | undefined {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return entries.find((entry) => entry.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** A running process's arguments, its executable's path first. */
function commandLineOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((arg) => arg !== '');
}

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

  it('keeps the young generation within 8 MiB when started as a bare node process', async () => {
    server = await startBuiltServer({ DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}` });
    expect(await heapSpaceSize(server.url, 'new')).toBeLessThanOrEqual(8 * MIB);
  });

  it('leaves the young generation to the operator who sets it on the command line', async () => {
    server = await startBuiltServer({
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      NODE_OPTIONS: '--max-semi-space-size=32',
    });
    expect(await heapSpaceSize(server.url, 'new')).toBeGreaterThan(8 * MIB);
  });

  // apps/api/src/process-start-settings.ts: the same pid, restarted once with what it lacked.
  const onLinux = process.platform === 'linux' ? it : it.skip;

  onLinux('restarts itself with MALLOC_ARENA_MAX=2 when the environment has none', async () => {
    server = await startBuiltServer({
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      MALLOC_ARENA_MAX: undefined,
    });
    expect(environmentOf(server.pid, 'MALLOC_ARENA_MAX')).toBe('2');
  });

  onLinux('restarts itself with the young generation capped on its command line, where V8 reads it', async () => {
    server = await startBuiltServer({ DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}` });
    expect(commandLineOf(server.pid)).toContain('--max-semi-space-size=4');
  });

  onLinux("adds no young-generation flag beside the operator's own", async () => {
    server = await startBuiltServer({
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      NODE_OPTIONS: '--max-semi-space-size=32',
    });
    expect(commandLineOf(server.pid).filter((arg) => arg.includes('semi-space'))).toEqual([]);
  });

  onLinux("keeps the operator's MALLOC_ARENA_MAX", async () => {
    server = await startBuiltServer({
      DATABASE_URL: `sqlite:${join(dir, 'plantstore.sqlite')}`,
      MALLOC_ARENA_MAX: '4',
    });
    expect(environmentOf(server.pid, 'MALLOC_ARENA_MAX')).toBe('4');
  });
});
