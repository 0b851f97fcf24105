// The servers under test, each on a fresh database of its own and a free 127.0.0.1 port,
// pinned to the servers' CPU: the project's production build (as `node apps/api/dist/main.js`
// and through `pnpm start`), the checkout or Node it is compared with (BENCH_COMPARE_ROOT,
// BENCH_COMPARE_NODE), the project with its relay off, the two bare baselines
// (baseline-server.mjs) and the stack floor (stack-floor-server.mjs). BENCH_ONLY picks them.
// The project's servers get no MALLOC_ARENA_MAX from the bench, as from an operator who
// starts them the ways the README shows: they set it themselves.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { freePort } from '../test-support/free-port.mjs';
import { createPgDatabase } from './databases.mjs';
import { descendantRunning, rssKb, sleep, startedAs, stopChild, tail, track } from './processes.mjs';
import {
  COMPARE_NODE,
  COMPARE_ROOT,
  LOG_LEVEL,
  NATS_URL,
  ONLY,
  pinned,
  POSTGRES,
  PROFILE,
  ROOT,
  SERVER_CPU,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_NODE,
  SERVER_NODE_ARGS,
} from './settings.mjs';

const SERVER_MAIN = 'apps/api/dist/main.js';

/** The servers BENCH_ONLY asks for, in the order each round runs them; `tmp` holds their files. */
export function serversToRun(tmp) {
  const baselineScript = join(ROOT, 'bench/baseline-server.mjs');
  const targets = [
    {
      name: 'project',
      label: 'project',
      startedAs: '`node apps/api/dist/main.js`',
      root: ROOT,
      node: SERVER_NODE,
      script: join(ROOT, SERVER_MAIN),
      nodeArgs: SERVER_NODE_ARGS,
      env: { LOG_LEVEL, NATS_URL },
      relays: Boolean(NATS_URL),
    },
    {
      // The README's first way to start it: pnpm runs the build, then node (the project's own).
      name: 'start',
      label: 'project via pnpm start',
      startedAs: '`pnpm start`',
      root: ROOT,
      command: ['pnpm', ['start']],
      nodeArgs: [],
      env: { LOG_LEVEL, NATS_URL, npm_config_update_notifier: 'false' },
    },
    {
      name: 'before',
      label: COMPARE_ROOT ? 'project before (BENCH_COMPARE_ROOT)' : 'project on BENCH_COMPARE_NODE',
      startedAs: '`node apps/api/dist/main.js`',
      root: COMPARE_ROOT || ROOT,
      node: COMPARE_NODE,
      script: join(COMPARE_ROOT || ROOT, SERVER_MAIN),
      nodeArgs: SERVER_NODE_ARGS,
      env: { LOG_LEVEL, NATS_URL },
    },
    {
      // Only when asked for (BENCH_ONLY=…,quiet): the project with its relay off, beside one
      // publishing to BENCH_NATS_URL, for what the relay costs per create.
      name: 'quiet',
      label: 'project, relay off',
      startedAs: '`node apps/api/dist/main.js`',
      root: ROOT,
      node: SERVER_NODE,
      script: join(ROOT, SERVER_MAIN),
      nodeArgs: SERVER_NODE_ARGS,
      env: { LOG_LEVEL, NATS_URL: '' },
    },
    {
      name: 'request',
      label: 'bare, commit per request',
      script: baselineScript,
      nodeArgs: [],
      env: { BASELINE_COMMIT: 'request' },
    },
    {
      name: 'group',
      label: 'bare, group commit',
      script: baselineScript,
      nodeArgs: [],
      env: { BASELINE_COMMIT: 'group' },
    },
    {
      // Only when asked for (BENCH_ONLY=…,floor): the mandated stack alone, storing nothing.
      name: 'floor',
      label: 'stack floor, stores nothing',
      script: join(ROOT, 'bench/stack-floor-server.mjs'),
      nodeArgs: [],
      env: {},
      storesNothing: true,
    },
  ].filter((target) => ONLY.has(target.name));
  for (const target of targets) {
    target.tmp = tmp;
    if (PROFILE && ['project', 'floor', 'quiet'].includes(target.name)) {
      target.profileDir = join(tmp, `profile-${target.name}`);
      target.nodeArgs = [...target.nodeArgs, '--cpu-prof', `--cpu-prof-dir=${target.profileDir}`];
    }
  }
  return targets;
}

/** Each server's own database: a new PostgreSQL database, or a SQLite file in `tmp`. */
export async function giveDatabases(targets, tmp) {
  for (const target of targets) {
    if (POSTGRES) target.pgUrl = await createPgDatabase(target.name);
    else target.sqlitePath = join(tmp, `${target.name}.sqlite`);
    target.env.DATABASE_URL = target.pgUrl ?? `sqlite:${target.sqlitePath}`;
  }
}

/** Starts every server, the project first: its CLI makes the token the bare servers then register. */
export async function startServers(targets) {
  let token = `pst_${randomBytes(32).toString('base64url')}`;
  for (const target of targets) {
    if (!target.root) {
      target.token = token;
      target.env.BASELINE_TOKEN = token;
    }
    await startTarget(target);
    token = target.token;
  }
}

export async function startTarget(target) {
  target.server = await startServerOnItsOwnPort(target);
  if (target.root) target.token = await createToken(target.env.DATABASE_URL, target.root, target.node);
  await sleep(500);
  target.idleRssMb = rssKb(target.server.pid).total / 1024; // started, migrated, token ready: before any load
  if (target.root) target.started = describeStart(target.server.pid);
}

/** The Node a server runs on and the MALLOC_ARENA_MAX it runs with, read from /proc. */
function describeStart(pid) {
  const { executable, value } = startedAs(pid, 'MALLOC_ARENA_MAX');
  const version = executable && spawnSync(executable, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  return { nodeVersion: version || 'unknown', mallocArenaMax: value };
}

/**
 * Another process on the machine may take the free port between the check and the server's
 * listen, and then answer the readiness probe while this server exits with EADDRINUSE: such a
 * start is tried again on another port.
 */
async function startServerOnItsOwnPort(target) {
  for (let attempt = 1; ; attempt++) {
    const server = await startServer(target);
    await sleep(300);
    const { child, logPath } = server;
    if (child.exitCode === null && child.signalCode === null) return server;
    if (attempt >= 3 || !/EADDRINUSE/.test(tail(logPath)))
      throw new Error(`${target.name} server exited after start-up:\n${tail(logPath)}`);
  }
}

async function startServer(target) {
  const port = await freePort();
  const logPath = join(target.tmp, `${target.name}.log`);
  const logFd = openSync(logPath, 'w');
  const [command, args] = target.command
    ? pinned(SERVER_CPU, ...target.command)
    : pinned(SERVER_CPU, target.node ?? process.execPath, [...target.nodeArgs, target.script]);
  const startedAt = Date.now();
  const child = track(
    spawn(command, args, {
      cwd: target.root ?? ROOT, // `pnpm start` runs the checkout it is started in
      env: {
        // The bare servers with the container image's malloc setting (docs/operations.md#memory), unless the shell sets one.
        ...(target.root ? {} : { MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX }),
        ...process.env,
        ...target.env,
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', logFd, logFd],
    }),
    target.name,
  );
  closeSync(logFd);
  // `pnpm start` builds first.
  const startS = target.command ? 300 : 60;
  const deadline = Date.now() + startS * 1000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${target.name} server exited during start-up (${child.signalCode ?? child.exitCode}):\n${tail(logPath)}`,
      );
    }
    const status = await httpGet(port, '/healthz');
    if (status !== null) break; // it answers HTTP: listening, migrations applied
    if (Date.now() > deadline)
      throw new Error(`${target.name} server did not answer within ${startS} s:\n${tail(logPath)}`);
    await sleep(100);
  }
  // The node process that serves, whose CPU and RSS are read: under `pnpm start`, a descendant.
  const pid = target.command ? descendantRunning(child.pid, SERVER_MAIN) : child.pid;
  if (pid === undefined) throw new Error(`${target.name}: no process running ${SERVER_MAIN} under pid ${child.pid}`);
  return { child, pid, port, logPath, startedAt };
}

function httpGet(port, path, timeoutMs = 1000) {
  return new Promise((resolveGet) => {
    const req = http.get({ host: '127.0.0.1', port, path, timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolveGet(res.statusCode));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolveGet(null));
  });
}

/** A plants:write token made by the CLI of the checkout at `root`, as an operator makes one. */
async function createToken(databaseUrl, root = ROOT, node = process.execPath) {
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(
      node,
      [join(root, 'apps/cli/dist/main.js'), 'token', 'create', '--name', 'bench', '--json'],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    const line = (result.stdout || '').trim().split('\n').pop();
    try {
      const token = JSON.parse(line).token;
      if (typeof token === 'string' && token) return token;
    } catch {
      // Not the JSON line yet: retried below.
    }
    if (attempt >= 3) {
      throw new Error(
        `token create failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout || '').trim().slice(-2000)}`,
      );
    }
    await sleep(2000);
  }
}

/** Milliseconds since the server started: where a run falls in its CPU profile. */
export const sinceStart = (target) => Date.now() - target.server.startedAt;

/** Stops every server that started; one that did not exit 0 on SIGTERM shows its log's end. */
export async function stopServers(targets, runs) {
  for (const target of targets)
    await stopTarget(
      target,
      runs.some((r) => r.target === target.name && !r.failed),
    );
}

async function stopTarget(target, anyMeasured) {
  if (!target.server) return;
  const { child, pid, logPath } = target.server;
  // pnpm is not relied on to pass SIGTERM on: the server gets it, and pnpm then exits with its status.
  if (pid !== child.pid) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone: pnpm's exit says how.
    }
    await Promise.race([child.exited, sleep(15_000)]);
  }
  const { code, signal } = await stopChild(child);
  if (code !== 0)
    process.stderr.write(
      `bench: ${target.name} server did not exit 0 on SIGTERM (${signal ?? `exit ${code}`})\n${tail(logPath, 10)}\n`,
    );
  else if (target.root && anyMeasured) {
    const log = tail(logPath, 5);
    if (log) process.stderr.write(`bench: last lines of the ${target.name} server log:\n${log}\n`);
  }
}
