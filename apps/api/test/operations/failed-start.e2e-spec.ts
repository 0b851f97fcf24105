import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const mainJs = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

/** Runs the built server until it exits; every line it wrote, parsed. */
function failedStart(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [mainJs], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');
  return {
    status: result.status,
    // JSON.parse throws on any line that is not one JSON object (Nest's coloured lines, a stack trace).
    stdout: lines(result.stdout).map((line) => JSON.parse(line) as Record<string, unknown>),
    stderr: lines(result.stderr).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('a server that cannot start', () => {
  it('writes only JSON lines, Nest start-up included, and ends with one fatal line on stderr (exit 1)', () => {
    const run = failedStart({
      DATABASE_URL: 'postgres://postgres:s3cret@127.0.0.1:1/unreachable',
      PG_CONNECT_TIMEOUT_MS: '1000',
      // Nest's start-up report is written at debug.
      LOG_LEVEL: 'debug',
    });
    expect(run.status).toBe(1);
    expect(run.stdout.length).toBeGreaterThan(0);
    expect(run.stdout[0]).toMatchObject({ level: 'debug', context: 'NestFactory', service: 'plantstore' });
    // Start-up progress only: no error line, no stack trace before the fatal line says why.
    expect(run.stdout.filter((line) => line['level'] !== 'debug' && line['level'] !== 'info')).toEqual([]);
    expect(JSON.stringify(run.stdout)).not.toMatch(/stack|ECONNREFUSED/);
    expect(run.stderr).toEqual([
      expect.objectContaining({
        level: 'fatal',
        msg: expect.stringMatching(/^failed to start: .*ECONNREFUSED 127\.0\.0\.1:1/),
      }),
    ]);
    expect(JSON.stringify(run)).not.toContain('s3cret');
  });

  it.each([
    [
      'HOST that does not resolve',
      { HOST: 'not-a-host.invalid' },
      /^invalid configuration: HOST must be an IP address or a host name that resolves \("not-a-host\.invalid": /,
    ],
    [
      'TLS_CERT_FILE that does not exist',
      { TLS_CERT_FILE: '/nope.pem', TLS_KEY_FILE: '/nope-key.pem' },
      /^invalid configuration: TLS_CERT_FILE cannot be read: no such file \("\/nope\.pem"\)$/,
    ],
    [
      'TLS_CERT_FILE that is no certificate',
      { TLS_CERT_FILE: mainJs, TLS_KEY_FILE: mainJs },
      /^invalid configuration: TLS_CERT_FILE must name a PEM certificate /,
    ],
    [
      'DATABASE_URL in a directory that does not exist',
      { DATABASE_URL: 'sqlite:/nonexistent-plantstore/dir/x.sqlite' },
      /^invalid configuration: DATABASE_URL names a SQLite file in \/nonexistent-plantstore\/dir, which does not exist; create the directory first$/,
    ],
  ])('refuses a %s before anything starts: one fatal line naming it (exit 2)', (_name, env, message) => {
    const run = failedStart(env);
    expect(run.status).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toEqual([expect.objectContaining({ level: 'fatal', msg: expect.stringMatching(message) })]);
    expect(existsSync('/nonexistent-plantstore')).toBe(false);
  });

  it('refuses an invalid configuration with one fatal JSON line on stderr (exit 2)', () => {
    const run = failedStart({ PORT: 'x' });
    expect(run.status).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toEqual([
      expect.objectContaining({
        level: 'fatal',
        msg: 'invalid configuration: PORT must be an integer from 0 to 65535 (got "x")',
      }),
    ]);
  });
});
