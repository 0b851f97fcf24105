import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plantstore } from './support/cli-process.js';

// The events switch as an operator uses it, on a fresh SQLite store of the test's own.
describe('plantstore events', () => {
  let dir: string;
  let databaseUrl: string;
  const run = (...args: string[]) => plantstore(args, { databaseUrl, cwd: dir });
  const status = () => JSON.parse(run('events', 'status', '--json').stdout) as unknown;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plantstore-events-'));
    databaseUrl = `sqlite:${join(dir, 'plantstore.sqlite')}`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts off in a new store: imported plants leave nothing in the outbox', () => {
    expect(
      plantstore(['plants', 'import', '-'], { databaseUrl, cwd: dir, input: '{"id":1,"name":"Fern"}\n' }).status,
    ).toBe(0);
    expect(status()).toEqual({ enabled: false, waiting: 0 });
    expect(run('events', 'status')).toEqual({
      status: 0,
      stdout: 'PlantCreated events are off; 0 waiting in the outbox.\n',
      stderr: '',
    });
  });

  it('enable: events for plants imported afterwards, and a word on the plants stored before', () => {
    plantstore(['plants', 'import', '-'], { databaseUrl, cwd: dir, input: '{"id":1,"name":"Fern"}\n' });
    expect(run('events', 'enable')).toEqual({
      status: 0,
      stdout:
        'PlantCreated events are on. The 1 plant(s) stored before get no event (read them with `plants export`).\n',
      stderr: '',
    });
    plantstore(['plants', 'import', '-'], { databaseUrl, cwd: dir, input: '{"id":2,"name":"Moss"}\n' });
    expect(status()).toEqual({ enabled: true, waiting: 1 });
    expect(run('events', 'enable').stdout).toBe('PlantCreated events were already on; nothing changed.\n');
  });

  it('disable: the waiting events are discarded and no more are stored', () => {
    run('events', 'enable');
    plantstore(['plants', 'import', '-'], {
      databaseUrl,
      cwd: dir,
      input: '{"id":1,"name":"Fern"}\n{"id":2,"name":"Moss"}\n',
    });
    expect(run('events', 'disable')).toEqual({
      status: 0,
      stdout: 'PlantCreated events are off; 2 unpublished event(s) discarded.\n',
      stderr: '',
    });
    plantstore(['plants', 'import', '-'], { databaseUrl, cwd: dir, input: '{"id":3,"name":"Ivy"}\n' });
    expect(status()).toEqual({ enabled: false, waiting: 0 });
  });

  it('refuses arguments it does not take, before opening the database', () => {
    const result = run('events', 'enable', '--now');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Unknown option '--now'/);
    expect(existsSync(join(dir, 'plantstore.sqlite'))).toBe(false);
  });
});
