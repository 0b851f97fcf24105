// One slice of `pnpm bench --against`: a short warm-up, then one measured run of one kind of
// request on one server (bench/load.mjs, pinned to the load CPU as in `pnpm bench`), with the
// server's CPU time read before and after and its memory sampled (peak RSS, split into private
// and file pages); or one `plantstore plants import` by a checkout's own CLI, pinned to the
// servers' CPU. The A/B driver (ab-engine.mjs) alternates slices of the two builds.
import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { cpuUs, startRssSampler, tail, track } from './processes.mjs';
import { runLoad } from './scenarios.mjs';
import { pinned, SERVER_CPU, TIMEOUT_S } from './settings.mjs';

/**
 * One warm-up and one measured run on `target`: the measured run's figures. `requests()` gives
 * each run's requests (load-requests.mjs; creates by default), `ran(result)` hears of each run.
 */
export async function serverSlice(target, { connections, warmupS, durationS, requests = () => ({}), ran = () => {} }) {
  const { child, pid, port, logPath } = target.server;
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`${target.name} server has exited:\n${tail(logPath)}`);
  if (warmupS > 0) ran(await runLoad(port, target.token, connections, warmupS, target.tmp, requests()));
  const stopRss = startRssSampler(pid);
  const before = cpuUs(pid);
  let load;
  let peak;
  try {
    load = await runLoad(port, target.token, connections, durationS, target.tmp, requests());
    ran(load);
  } finally {
    peak = stopRss();
  }
  const cpu = cpuUs(pid) - before;
  return {
    ok2xx: load.ok2xx,
    non2xx: load.non2xx,
    errors: load.errors,
    reqPerSec: load.reqPerSec,
    idsUsed: load.idsUsed,
    cpuUsPerRequest: load.ok2xx > 0 ? cpu / load.ok2xx : Number.NaN,
    peakMb: { total: peak.total / 1024, private: peak.private / 1024, file: peak.file / 1024 },
  };
}

/**
 * `plantstore plants import file` by the CLI of the checkout `build` ({ root, node }) into a
 * fresh SQLite file in `dir`, pinned to the servers' CPU. CPU is the child's user + system
 * time as bash's `times` reports it; plants per second from the CLI's own `seconds`.
 */
export async function importSlice(build, file, dir, name) {
  const database = join(dir, `${name}.sqlite`);
  const cli = join(build.root, 'apps/cli/dist/main.js');
  const [command, args] = pinned(SERVER_CPU, 'bash', [
    '-c',
    '"$@" || exit $?; times',
    'bash',
    build.node,
    cli,
    'plants',
    'import',
    file,
    '--json',
  ]);
  const errPath = join(dir, `${name}.err`);
  const errFd = openSync(errPath, 'w');
  const child = track(
    spawn(command, args, {
      cwd: build.root,
      env: { ...process.env, DATABASE_URL: `sqlite:${database}` },
      stdio: ['ignore', 'pipe', errFd],
    }),
    'import',
  );
  closeSync(errFd);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const { code, signal } = await child.exited;
  for (const suffix of ['', '-wal', '-shm']) rmSync(database + suffix, { force: true });
  if (code !== 0) throw new Error(`import failed (${signal ?? code}): ${tail(errPath)}`);
  const lines = stdout.trim().split('\n');
  const summary = JSON.parse(lines.find((line) => line.startsWith('{')));
  // `times`: the shell's own user/system, then its children's: "0m1.234s 0m0.056s".
  const seconds = (text) =>
    [...text.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, [, m, sec]) => s + 60 * m + Number(sec), 0);
  const childCpuS = seconds(lines.at(-1));
  return {
    ok2xx: summary.imported,
    reqPerSec: summary.lines / summary.seconds,
    cpuUsPerRequest: (childCpuS * 1e6) / summary.lines,
  };
}

/**
 * Which of `methods` a server routes for `path` (lower case): each is asked once without a
 * token, and the project answers an unrouted method 404 or 405 before it checks the token. Not
 * its OpenAPI document, which a server builds only when first asked: the candidate would load
 * the document's code in the middle of the memory measurement and the baseline would not.
 */
export async function routeMethods(port, path, methods = ['get', 'put', 'delete']) {
  const routed = await Promise.all(
    methods.map(
      (method) =>
        new Promise((resolveRouted) => {
          const req = http.request(
            { host: '127.0.0.1', port, path, method: method.toUpperCase(), timeout: TIMEOUT_S * 1000 },
            (res) => {
              res.resume();
              resolveRouted(res.statusCode !== 404 && res.statusCode !== 405);
            },
          );
          req.on('timeout', () => req.destroy(new Error('timeout')));
          req.on('error', () => resolveRouted(false));
          req.end();
        }),
    ),
  );
  return methods.filter((_, i) => routed[i]);
}
