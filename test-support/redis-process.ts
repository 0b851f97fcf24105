import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { reportSkipped } from './skipped.js';
import { freePort } from './free-port.mjs';

export interface RedisProcess {
  readonly url: string;
  readonly client: Redis;
  /** SIGSTOP: the server keeps its connections open and answers nothing. */
  freeze(): void;
  /** SIGCONT: it answers again. */
  thaw(): void;
  stop(): Promise<void>;
}

/**
 * Whether a redis-server binary can be started here for the suites named in `what`; when not,
 * they are added to the run's list of what was skipped. In CI a missing binary is a failure.
 */
export function redisServerPresent(what: string): boolean {
  if (spawnSync('redis-server', ['--version']).status === 0) return true;
  if (process.env['CI'] === 'true') throw new Error('redis-server is missing in CI');
  reportSkipped(what, 'install redis-server (apt-get install redis-server)');
  return false;
}

/**
 * A Redis of the test's own, on a free loopback port (or `onPort`, to bring one back), so it can be frozen without touching
 * the machine's shared Redis. Undefined (with one printed line) when no redis-server binary
 * is installed outside CI; in CI its absence fails the suite.
 */
export async function startRedisProcess(onPort?: number): Promise<RedisProcess | undefined> {
  if (!redisServerPresent('Redis outage suite (a frozen Redis)')) return undefined;
  const port = onPort ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => (attempt > 50 ? null : 100),
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (error) {
      if (attempt > 50)
        throw new Error(`redis-server on port ${port} did not start: ${(error as Error).message}`, { cause: error });
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    client,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    async stop() {
      client.disconnect();
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
