import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../src/config.js';

const mainJs = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/main.js');

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      limits: { bodyLimitBytes: 65_536 },
      logLevel: 'info',
    });
    expect(config.database).toMatchObject({ engine: 'sqlite' });
    expect(config.database.engine === 'sqlite' && config.database.path.endsWith('/data/plantstore.sqlite')).toBe(true);
  });

  it('runs no plant event relay unless NATS_URL is set, and takes a list of servers', () => {
    expect(loadConfig({}).natsUrl).toBeUndefined();
    expect(loadConfig({ NATS_URL: '' }).natsUrl).toBeUndefined();
    expect(loadConfig({ NATS_URL: 'nats://127.0.0.1:4222,tls://n2:4222' }).natsUrl).toBe(
      'nats://127.0.0.1:4222,tls://n2:4222',
    );
  });

  it('lets one client hold half of MAX_REQUESTS_IN_FLIGHT by default, at most all of it', () => {
    expect(loadConfig({}).limits).toMatchObject({ maxRequestsInFlight: 256, maxRequestsInFlightPerClient: 128 });
    expect(loadConfig({ MAX_REQUESTS_IN_FLIGHT: '9' }).limits.maxRequestsInFlightPerClient).toBe(5);
    expect(
      loadConfig({ MAX_REQUESTS_IN_FLIGHT: '8', MAX_REQUESTS_IN_FLIGHT_PER_CLIENT: '8' }).limits
        .maxRequestsInFlightPerClient,
    ).toBe(8);
    expect(() => loadConfig({ MAX_REQUESTS_IN_FLIGHT: '8', MAX_REQUESTS_IN_FLIGHT_PER_CLIENT: '9' })).toThrow(
      new ConfigError('MAX_REQUESTS_IN_FLIGHT_PER_CLIENT must be an integer from 1 to 8 (got "9")'),
    );
  });

  it('selects PostgreSQL from postgres:// and postgresql:// URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database.engine).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).database.engine).toBe('postgres');
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535 (got "abc")'],
    ['PORT', '70000', 'PORT must be an integer from 0 to 65535 (got "70000")'],
    ['BODY_LIMIT_BYTES', '-1', 'BODY_LIMIT_BYTES must be an integer from 2 to 16777216 (got "-1")'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL must start with postgres://, postgresql:// or sqlite:'],
    ['NATS_URL', '127.0.0.1:4222', 'NATS_URL must be nats:// or tls:// URLs, separated by commas'],
    ['NATS_URL', 'nats://a:4222,http://b', 'NATS_URL must be nats:// or tls:// URLs, separated by commas'],
  ])('refuses %s=%s naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new ConfigError(message));
  });

  it('stops the real server with one clear JSON line on stderr and a non-zero exit', () => {
    const result = spawnSync(process.execPath, [mainJs], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stderr)).toMatchObject({
      level: 'fatal',
      service: 'plantstore',
      msg: 'invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")',
    });
  });
});
