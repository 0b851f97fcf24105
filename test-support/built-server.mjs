import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { freePort } from './free-port.mjs';
import { resolve } from 'node:path';
import { builtFile, repositoryRoot } from './repository-root.mjs';

/**
 * The one launcher of the built server, `node apps/api/dist/main.js` as an operator runs it:
 * for every suite that needs a real process (crash, signals, several instances, outages) and
 * for the client's type generator. Plain JavaScript, so that node runs it as it is.
 */

/** The server's entry point; `pnpm test` builds it first. */
export const SERVER_JS = resolve(repositoryRoot, 'apps/api/dist/main.js');

/** Attempts on another free port when the one chosen was taken before the server bound it. */
const ATTEMPTS = 3;

/**
 * @typedef {object} BuiltServer
 * @property {string} url `http://127.0.0.1:<port>` (`https:` when TLS_CERT_FILE is set)
 * @property {number} port
 * @property {number} pid
 * @property {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>} child
 * @property {() => string} stdout everything the process wrote to stdout so far (its log lines)
 * @property {() => string} stderr everything it wrote to stderr so far
 * @property {() => string} output stdout and stderr so far, in the order they came
 * @property {(signal?: NodeJS.Signals, graceMs?: number) => Promise<void>} stop sends `signal`
 *   (SIGTERM by default), then SIGKILL if the process is still there after `graceMs`
 *   (10 s by default); resolves once it is gone
 */

/**
 * @typedef {object} StartOptions
 * @property {number} [port] where to listen; a free port by default
 * @property {number} [readyTimeoutMs] how long to wait for `ready` (30 s by default)
 * @property {(server: BuiltServer) => boolean | Promise<boolean>} [ready] when the server is
 *   up; by default once it answers HTTP, which it does only after its migrations
 */

/**
 * Starts the built server on 127.0.0.1 with `env` added to this process's environment (and
 * LOG_LEVEL=warn unless `env` sets it; a variable set to undefined is left out), and resolves
 * once it is ready. Rejects with what it wrote to stderr if it exits first, or is not ready
 * within the timeout.
 *
 * @param {Record<string, string | undefined>} env
 * @param {StartOptions} [options]
 * @returns {Promise<BuiltServer>}
 */
export async function startBuiltServer(env, { port, readyTimeoutMs = 30_000, ready = answersHttp } = {}) {
  const main = builtFile(SERVER_JS);
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer(main, env, port ?? (await freePort()));
    const failure = await untilReady(server, ready, readyTimeoutMs);
    if (failure === undefined) return server;
    const portTaken = port === undefined && /EADDRINUSE/.test(server.stderr());
    if (!portTaken || attempt === ATTEMPTS) throw failure;
  }
}

/**
 * @param {string} main
 * @param {Record<string, string | undefined>} env
 * @param {number} port
 * @returns {BuiltServer}
 */
function spawnServer(main, env, port) {
  const merged = { ...process.env, LOG_LEVEL: 'warn', ...env, HOST: '127.0.0.1', PORT: String(port) };
  const child = spawn(process.execPath, [main], {
    cwd: repositoryRoot,
    env: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = new Promise((done) => child.once('exit', done));
  return {
    // With TLS_CERT_FILE set the server speaks HTTPS, and its URL says so.
    url: `${env.TLS_CERT_FILE === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const escalate = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(escalate);
    },
  };
}

/**
 * Undefined once the server is ready, else why it is not.
 *
 * @param {BuiltServer} server
 * @param {NonNullable<StartOptions['ready']>} ready
 * @param {number} timeoutMs
 * @returns {Promise<Error | undefined>}
 */
async function untilReady(server, ready, timeoutMs) {
  const { child } = server;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode !== null ? `with code ${child.exitCode}` : `on ${child.signalCode}`;
      return new Error(`the server exited ${how} before answering: ${server.stderr().trim()}`);
    }
    if (await ready(server)) return undefined;
    if (Date.now() > deadline) {
      await server.stop('SIGKILL');
      return new Error(`the server was not ready on ${server.url} within ${timeoutMs} ms: ${server.stderr().trim()}`);
    }
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/**
 * Any HTTP answer means the server listens (whatever /healthz says of its dependencies).
 *
 * @param {BuiltServer} server
 * @returns {Promise<boolean>}
 */
function answersHttp({ url }) {
  return new Promise((done) => {
    // Whether it listens is the question, not whose certificate it shows.
    const send = url.startsWith('https:') ? httpsRequest : request;
    const probe = send(`${url}/healthz`, { timeout: 1_000, agent: false, rejectUnauthorized: false }, (response) => {
      response.resume();
      done(true);
    });
    probe.on('timeout', () => probe.destroy());
    probe.on('error', () => done(false));
    probe.end();
  });
}
