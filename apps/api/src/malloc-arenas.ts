/** The glibc malloc arenas the server runs with unless the operator sets MALLOC_ARENA_MAX. */
export const MALLOC_ARENA_MAX = '2';

/**
 * Restarts this very process (same pid, flags and arguments) with MALLOC_ARENA_MAX=2 when the
 * environment does not set it, so that `pnpm start` and a bare `node apps/api/dist/main.js`
 * get what the container image sets: without it, the memory V8's compiler threads free stays
 * resident in arenas of their own (docs/operations.md#memory). glibc reads the variable only
 * when the process starts, hence an exec rather than setting it here.
 *
 * Left alone: an operator's own value (any, even empty), which also ends the recursion; other
 * platforms than Linux; a Node without process.execve; and a process with an IPC channel
 * (`node --watch`, `pnpm dev`), which exec would close (dev.mjs sets the variable instead).
 */
export function restartWithMallocArenaLimit(): void {
  if (process.env['MALLOC_ARENA_MAX'] !== undefined) return;
  if (process.platform !== 'linux' || typeof process.execve !== 'function' || process.channel !== undefined) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX,
  });
}
