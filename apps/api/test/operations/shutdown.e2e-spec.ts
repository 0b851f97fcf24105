import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { Lifecycle } from '@plantstore/adapters-http';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { startTestApp } from '../support/test-app.js';

/** Collects what the server answers on a socket until it closes it. */
function responseOn(socket: Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve, reject) => {
    socket.once('close', () => resolve(text));
    socket.once('error', reject);
  });
}

describe('graceful shutdown of the built server', () => {
  let dir: string;
  let server: BuiltServer | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plantstore-shutdown-'));
  });
  afterEach(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on SIGTERM: finishes the request in flight (200, stored), refuses new connections, exits 0', async () => {
    const databaseUrl = `sqlite:${join(dir, 'plantstore.sqlite')}`;
    const { token } = await createTokenWithCli(databaseUrl, 'shutdown');
    server = await startBuiltServer({ DATABASE_URL: databaseUrl, SHUTDOWN_TIMEOUT: '10000' });
    const { port } = new URL(server.url);

    // A request whose body is still arriving when the signal comes.
    const body = '{"id": 777, "name": "in flight"}';
    const inFlight = connect(Number(port), '127.0.0.1');
    await once(inFlight, 'connect');
    const answer = responseOn(inFlight);
    inFlight.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((wait) => setTimeout(wait, 200));
    const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    server.child.kill('SIGTERM');
    await new Promise((wait) => setTimeout(wait, 300));

    const refused = await new Promise<string>((resolve) => {
      const late = connect(Number(port), '127.0.0.1');
      late.once('connect', () => {
        late.destroy();
        resolve('connected');
      });
      late.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');

    inFlight.write(body.slice(10));
    const response = await answer;
    expect(response).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(response.endsWith('{"name":"in flight"}')).toBe(true);

    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const db = new Database(join(dir, 'plantstore.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT CAST(id AS TEXT) AS id, name FROM plant').all()).toEqual([
        { id: '777', name: 'in flight' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('a keep-alive request in flight at SIGTERM', () => {
  it('is answered with Connection: close, so the process exits at once instead of waiting for the connection to go idle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-shutdown-'));
    let server: BuiltServer | undefined;
    try {
      const databaseUrl = `sqlite:${join(dir, 'plantstore.sqlite')}`;
      const { token } = await createTokenWithCli(databaseUrl, 'keep-alive');
      // Long keep-alive and shutdown timeouts: only Connection: close can make the exit quick.
      server = await startBuiltServer({
        DATABASE_URL: databaseUrl,
        SHUTDOWN_TIMEOUT: '20000',
        KEEP_ALIVE_TIMEOUT_MS: '20000',
      });
      const { port } = new URL(server.url);
      const body = '{"id": 778, "name": "kept alive"}';
      const client = connect(Number(port), '127.0.0.1');
      await once(client, 'connect');
      let text = '';
      client.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      const closed = once(client, 'close');
      client.write(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((wait) => setTimeout(wait, 200));
      const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      server.child.kill('SIGTERM');
      await new Promise((wait) => setTimeout(wait, 300));
      client.write(body.slice(10));
      const answeredAt = await new Promise<number>((resolve) => {
        const check = () =>
          text.includes('{"name":"kept alive"}') ? resolve(performance.now()) : setTimeout(check, 10);
        check();
      });
      expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
      await closed;
      const [code, signal] = await exited;
      const exitDelayMs = performance.now() - answeredAt;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // Before, the idle keep-alive connection held the exit until the shutdown timeout (20 s here).
      expect(exitDelayMs).toBeLessThan(5_000);
    } finally {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('while draining', () => {
  it('answers every new request, readiness included, with 503/50301 and Connection: close', async () => {
    const t = await startTestApp();
    try {
      expect((await request(t.url).get('/readyz')).status).toBe(200);
      t.app.get(Lifecycle).beginShutdown();
      for (const path of ['/readyz', '/healthz', '/plants']) {
        const res = await request(t.url).get(path);
        expect(res.status).toBe(503);
        expect(res.headers['connection']).toBe('close');
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body).toEqual({ error: 50301, message: 'The server is shutting down; retry on another instance.' });
      }
      // Each refusal's request line names why.
      const refused = t.logs.lines
        .map((line) => JSON.parse(line) as { msg: string; status?: number; cause?: string })
        .filter((line) => line.msg === 'request completed' && line.status === 503);
      expect(refused.map((line) => line.cause)).toEqual(['shutting down', 'shutting down', 'shutting down']);
    } finally {
      await t.close();
    }
  });
});
