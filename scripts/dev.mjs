#!/usr/bin/env node
/**
 * `pnpm dev`: the server in development. `tsc -b --watch` rebuilds what a change touches and
 * `node --watch` restarts the server when a file it loaded is rewritten, so an edit is live
 * a moment after it is saved. Node built-ins only: a shell `a & b` would leave the
 * background watcher running after Ctrl-C, since a non-interactive shell starts it with
 * SIGINT ignored.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const run = (args, env = {}) =>
  spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

// Built once first: node --watch needs the server's main.js before it can start, and the
// server the catalogue page (apps/web, rebuilt by `pnpm build`).
const built = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status === 0;
if (!built([tsc, '-b']) || !built(['apps/web/scripts/build.mjs'])) {
  process.stderr.write('dev: the build failed; fix the errors above and run `pnpm dev` again.\n');
  process.exit(1);
}
// The server's own young-generation cap, from what was just built.
const { YOUNG_GENERATION_FLAG } = await import('../apps/api/dist/v8-memory.js');

const children = [
  run([tsc, '-b', '--watch', '--preserveWatchOutput']),
  // The server's process-start settings from here: under --watch it cannot restart itself with
  // them (apps/api/src/process-start-settings.ts).
  run([YOUNG_GENERATION_FLAG, '--watch', '--watch-preserve-output', 'apps/api/dist/main.js'], {
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  }),
];
let exitCode;

// When either stops (Ctrl-C, a crash of the watcher), stop the other: never a watcher left behind.
function stop(code) {
  exitCode ??= code;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

for (const child of children) {
  child.on('exit', (code) => {
    stop(code ?? 0);
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
